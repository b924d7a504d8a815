-- update_reused_membership: OLD's membership rows an update carries over, as stg_membership rows (stage_seq
-- -1): membership.parquet holds each grain's winner, the only row the models read of it. price_bars rows of
-- the instruments reused as they were (appended ones get their span from the append path), edgar_submissions
-- rows of the reused companies, membership_csv rows when the index files are not read again.
-- Reads $file (OLD's membership.parquet), old_series, reuse_price_symbols, reuse_ciks and the flags
-- $all_prices, $all_edgar (the source reused whole) and $index_files.
-- grain: (entity_id, universe, source, from_us, available_at_us)
WITH kept_price_entities AS (
  SELECT DISTINCT o.entity_id
  FROM old_series AS o
  JOIN reuse_price_symbols AS r ON r.symbol = split_part(o.series_id, ':', 2)
  WHERE split_part(o.series_id, ':', 1) IN ('px', 'pxadj') AND NOT r.appended AND o.entity_id IS NOT NULL
),
source AS (
  SELECT * FROM read_parquet($file)
),
final AS (
  SELECT entity_id, universe, epoch_us("from") AS from_us, epoch_us("to") AS to_us,
    epoch_us(available_at) AS available_at_us, source, source_ref,
    strftime(effective_from, '%Y-%m-%d') AS effective_from, strftime(effective_to, '%Y-%m-%d') AS effective_to,
    -1 AS stage_seq
  FROM source
  WHERE (source = 'price_bars' AND ($all_prices OR entity_id IN (SELECT entity_id FROM kept_price_entities)))
     OR (source = 'edgar_submissions' AND ($all_edgar OR entity_id IN (SELECT cik FROM reuse_ciks)))
     OR (source = 'membership_csv' AND $index_files)
)
SELECT * FROM final ORDER BY entity_id, universe, source, from_us NULLS FIRST, available_at_us NULLS FIRST
