-- target_rows: the compact form of the targets (--layout compact): each grid step's target once. The target
-- of origin o at step k is the row with step_index = o's origin_index + k (origins.parquet); a missing row is
-- a pending step. Only steps some served origin targets are kept.
-- grain: (series_id, step_index)
-- invariants: available_at <= the run date; step_index > the series' first origin_index.
WITH source AS (
  SELECT series_key, min(origin_index) AS first_index, max(origin_index + horizon_steps) AS last_index
  FROM origins
  GROUP BY series_key
),
renamed AS (
  SELECT t.series_key, t.step_index, t."timestamp", t.value, t.available_at
  FROM target_values AS t
  JOIN source AS s USING (series_key)
  WHERE t.step_index > s.first_index AND t.step_index <= s.last_index
),
served AS (
  SELECT * FROM renamed
),
-- series_id back from series_keys (the split works on the integer key; see series_keys.sql).
final AS (
  SELECT k.series_id, v.* FROM served AS v JOIN series_keys AS k USING (series_key)
)
SELECT * FROM final
