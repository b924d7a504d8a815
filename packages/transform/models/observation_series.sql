-- observation_series: one row per series key the sources staged rows for, with the small integer that
-- orders it and its declared frequency: the dimension observation_rows and the observations view join on.
-- grain: series_key (= series_id: a key is one series text)
-- invariants: series_rank = 1…n in series_id order (sorting on it is much cheaper than on the string and
--   gives the same order); frequency is NULL for a series the sources never declared (invariant_violations
--   names it).
WITH source AS (
  SELECT key AS series_key, text AS series_id FROM stg_keys WHERE kind = 'series'
),
final AS (
  SELECT k.series_key, k.series_id, CAST(row_number() OVER (ORDER BY k.series_id) AS INTEGER) AS series_rank,
    s.frequency
  FROM source AS k
  LEFT JOIN stg_series AS s USING (series_id)
)
SELECT * FROM final
