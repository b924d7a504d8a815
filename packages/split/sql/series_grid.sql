-- series_grid: the observation grid of every evaluation-target series — each timestamp the build holds
-- for it (in any vintage), numbered in time order. Origins and target steps are counted on this grid.
-- grain: (series_id, "timestamp")
-- invariants: step_index runs 1..n without gaps per series; first_available_at is the first release;
--   n_vintages counts the rows (releases) of the timestamp.
WITH source AS (
  SELECT o.series_id, o."timestamp", o.available_at, s.frequency
  FROM split_observations AS o
  JOIN split_series AS s USING (series_id)
  WHERE s.eval_target
),
renamed AS (
  SELECT series_id, frequency, "timestamp", min(available_at) AS first_available_at, count(*) AS n_vintages
  FROM source
  GROUP BY series_id, frequency, "timestamp"
),
final AS (
  SELECT
    series_id, frequency, "timestamp", first_available_at, n_vintages,
    row_number() OVER (PARTITION BY series_id ORDER BY "timestamp")::INTEGER AS step_index
  FROM renamed
)
SELECT * FROM final
