-- baseline_origins: the forecast tasks — one per origin of the split, with its grid step (origin_index),
-- horizon and input window (lookback_steps), numbered (origin_no) so that the forecasts work table holds
-- numbers only and gets its series_id and origin text back from forecast_origins. Instants as epoch
-- microseconds.
-- Reads the view split_origins and baseline_series.
-- grain: (series_id, origin)
WITH source AS (
  SELECT series_id, origin, origin_index, horizon_steps, lookback_steps FROM split_origins
),
final AS (
  SELECT
    row_number() OVER (ORDER BY s.series_no, o.origin)::INTEGER AS origin_no, s.series_no, o.series_id,
    epoch_us(o.origin) AS origin, o.origin_index::BIGINT AS origin_index, o.horizon_steps::INTEGER AS horizon_steps,
    o.lookback_steps::INTEGER AS lookback_steps
  FROM source AS o
  JOIN baseline_series AS s USING (series_id)
)
SELECT * FROM final ORDER BY series_no, origin
