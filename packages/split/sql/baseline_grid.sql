-- baseline_grid: the grid steps of the split's served timestamps and of its origins (the inputs'
-- step_index, the origins' origin_index, and the training snapshot's as train_series places it). The
-- baselines' store holds only what the split serves, so it cannot number the grid itself (a step released
-- after the last origin is in no input, and the split serves nothing between its windows); seasonal naive
-- and drift count from the origin's own step on this grid, and drift's slope runs over it.
-- The snapshot carries no step per row: train_series gives the steps of its first and last timestamps, and
-- when they are n_obs − 1 apart (no hole on the grid) every row's step is the first's plus its rank; else
-- only its ends are placed — the scorer's read-split-tables.ts (SeriesGridSteps) places it the same way.
-- Reads the views split_input_steps, split_origins, split_train and split_train_series, and baseline_series.
-- grain: (series_no, ts, step)
WITH train_ends AS (
  SELECT
    series_id, first_timestamp, last_timestamp, first_step_index, last_step_index,
    last_step_index - first_step_index + 1 = n_obs AS consecutive
  FROM split_train_series
  WHERE first_step_index IS NOT NULL AND last_step_index IS NOT NULL
),
train_steps AS (
  SELECT
    t.series_id, t."timestamp",
    CASE
      WHEN e.consecutive THEN e.first_step_index + row_number() OVER (PARTITION BY t.series_id ORDER BY t."timestamp") - 1
      WHEN t."timestamp" = e.first_timestamp THEN e.first_step_index
      WHEN t."timestamp" = e.last_timestamp THEN e.last_step_index
    END AS step
  FROM split_train AS t
  JOIN train_ends AS e USING (series_id)
  -- Only the series with origins: the snapshot holds every series of the universe.
  WHERE t.series_id IN (SELECT series_id FROM baseline_series)
),
source AS (
  SELECT series_id, epoch_us("timestamp") AS ts, step_index::BIGINT AS step FROM split_input_steps
  UNION
  SELECT series_id, epoch_us(origin) AS ts, origin_index::BIGINT AS step FROM split_origins
  UNION
  SELECT series_id, epoch_us("timestamp") AS ts, step::BIGINT AS step FROM train_steps WHERE step IS NOT NULL
),
final AS (
  SELECT s.series_no, g.series_id, g.ts, g.step
  FROM source AS g
  JOIN baseline_series AS s USING (series_id)
)
SELECT * FROM final ORDER BY series_no, ts, step
