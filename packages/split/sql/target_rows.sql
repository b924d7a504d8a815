-- target_rows: the compact form of the targets (--layout compact): each grid step's target once. The target
-- of origin o at step k is the row with step_index = o's origin_index + k (origins.parquet); a missing row is
-- a pending step. Only steps some served origin targets are kept.
-- grain: (series_id, step_index)
-- invariants: available_at <= the run date; step_index > the series' first origin_index.
WITH source AS (
  SELECT series_id, min(origin_index) AS first_index, max(origin_index + horizon_steps) AS last_index
  FROM origins
  GROUP BY series_id
),
renamed AS (
  SELECT t.series_id, t.step_index, t."timestamp", t.value, t.available_at
  FROM target_values AS t
  JOIN source AS s USING (series_id)
  WHERE t.step_index > s.first_index AND t.step_index <= s.last_index
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
