-- baseline_grid: the grid steps of the split's served timestamps and of its origins (the inputs'
-- step_index, the origins' origin_index). The baselines' store holds only what the split serves, so it
-- cannot number the grid itself (a step released after the last origin is in no input); seasonal naive
-- and drift count from the origin's own step on this grid.
-- Reads the views split_input_steps and split_origins, and baseline_series.
-- grain: (series_no, ts, step)
WITH source AS (
  SELECT series_id, epoch_us("timestamp") AS ts, step_index::BIGINT AS step FROM split_input_steps
  UNION
  SELECT series_id, epoch_us(origin) AS ts, origin_index::BIGINT AS step FROM split_origins
),
final AS (
  SELECT s.series_no, g.series_id, g.ts, g.step
  FROM source AS g
  JOIN baseline_series AS s USING (series_id)
)
SELECT * FROM final ORDER BY series_no, ts, step
