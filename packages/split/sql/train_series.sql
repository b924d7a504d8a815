-- train_series: the series table restricted to series with training data, its history statistics recomputed
-- from what was public before the train cutoff (the parent's statistics describe the whole build, future included).
-- grain: series_id
-- invariants: first/last_timestamp and n_obs describe train_observations; n_revisions counts vintages public
--   before the cutoff beyond the first of each timestamp (withdrawals, value NULL, included, as in the build);
--   first/last_step_index are the grid steps (series_grid.sql) of first/last_timestamp, NULL for a series
--   that is not an evaluation target (it has no grid). The snapshot carries no step per row; with these two,
--   whoever rebuilds the history served at an origin (the scorer, asof baselines) places it on the grid:
--   every row when last − first + 1 = n_obs (no hole), else its ends. The drift baseline's slope and the
--   random walk's volatility window count grid steps, not rows (a split serves nothing between its windows).
WITH source AS (
  SELECT s.*, k.series_key, k.n_revisions AS parent_revisions
  FROM split_series AS s
  JOIN series_keys AS k USING (series_id)
),
-- Only series the parent says were revised can have revisions before the cutoff: the others hold one row
-- per timestamp, so they skip the distinct count (and only their frequencies' files are read).
known AS (
  SELECT k.series_key, count(*) - count(DISTINCT o."timestamp") AS n_revisions
  FROM split_revised_observations AS o
  JOIN series_keys AS k USING (series_id)
  WHERE o.available_at < $train_cutoff::TIMESTAMPTZ AND k.n_revisions > 0
  GROUP BY k.series_key
),
stats AS (
  SELECT series_key, min("timestamp") AS first_timestamp, max("timestamp") AS last_timestamp, count(*) AS n_obs
  FROM train_observations
  GROUP BY series_key
),
grid_ends AS (
  SELECT t.series_key, f.step_index AS first_step_index, l.step_index AS last_step_index
  FROM stats AS t
  LEFT JOIN series_grid AS f ON f.series_key = t.series_key AND f."timestamp" = t.first_timestamp
  LEFT JOIN series_grid AS l ON l.series_key = t.series_key AND l."timestamp" = t.last_timestamp
),
renamed AS (
  SELECT s.* EXCLUDE (parent_revisions) REPLACE (
    t.first_timestamp AS first_timestamp,
    t.last_timestamp AS last_timestamp,
    t.n_obs AS n_obs,
    coalesce(k.n_revisions, 0) AS n_revisions
  ), g.first_step_index, g.last_step_index
  FROM source AS s
  JOIN stats AS t USING (series_key)
  JOIN grid_ends AS g USING (series_key)
  LEFT JOIN known AS k USING (series_key)
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
