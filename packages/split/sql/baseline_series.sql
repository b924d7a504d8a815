-- baseline_series: the series `asof baselines` forecasts (every series with an origin in the split),
-- numbered in series_id order. The run works on blocks of consecutive series_no, so no block holds more
-- than a slice of the split in memory; n_origins and n_steps (forecast rows per model) size the blocks.
-- Reads the view split_origins.
-- grain: series_id
-- invariants: series_no runs 1..n in series_id order.
WITH source AS (
  SELECT series_id, frequency, horizon_steps FROM split_origins
),
per_series AS (
  SELECT series_id, min(frequency) AS frequency, count(*) AS n_origins, sum(horizon_steps)::BIGINT AS n_steps
  FROM source
  GROUP BY series_id
),
final AS (
  SELECT row_number() OVER (ORDER BY series_id) AS series_no, * FROM per_series
)
SELECT * FROM final ORDER BY series_no
