-- update_shared_price_entities: price entities an update would carry listing rows over for (a reused or
-- appended instrument) while another instrument of the same entity is read again, appended or new: the
-- build picks among such rows by staging order, so the update is refused (a full build runs instead).
-- Reads old_series, stg_series (what was staged again) and reuse_price_symbols (symbol, appended).
-- grain: (entity_id)
WITH symbols AS (
  SELECT DISTINCT split_part(series_id, ':', 2) AS symbol, entity_id FROM old_series
  WHERE split_part(series_id, ':', 1) IN ('px', 'pxadj') AND entity_id IS NOT NULL
  UNION
  SELECT DISTINCT split_part(series_id, ':', 2) AS symbol, entity_id FROM stg_series
  WHERE split_part(series_id, ':', 1) IN ('px', 'pxadj') AND entity_id IS NOT NULL
),
marked AS (
  SELECT s.entity_id, s.symbol, r.symbol IS NOT NULL AS kept, coalesce(r.appended, false) AS appended
  FROM symbols AS s LEFT JOIN reuse_price_symbols AS r USING (symbol)
),
final AS (
  SELECT entity_id FROM marked
  GROUP BY entity_id
  HAVING count(DISTINCT symbol) > 1 AND bool_or(kept) AND NOT bool_and(kept AND NOT appended)
)
SELECT * FROM final ORDER BY entity_id
