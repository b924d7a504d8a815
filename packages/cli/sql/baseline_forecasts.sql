-- baseline_forecasts: the forecasts file (schemas/forecast.schema.json), from the work tables the blocks
-- filled: forecasts (model_no, origin_no, step, value: numbers only, cheap to append and to store) with
-- the model name from forecast_models and the series_id and origin text (ISO with microseconds, written by
-- microsToIso: fixed width, so the text order is the time order) from forecast_origins, and ARIMA's and
-- GARCH's quantile columns q0.05…q0.95 from forecast_quantiles (NULL for the point baselines).
-- grain: (model, series_id, origin, step)
WITH source AS (
  SELECT model_no, origin_no, step, "value" FROM forecasts
),
final AS (
  SELECT m.model, o.series_id, o.origin, f.step, f."value", q.* EXCLUDE (model_no, origin_no, step)
  FROM source AS f
  JOIN forecast_models AS m USING (model_no)
  JOIN forecast_origins AS o USING (origin_no)
  LEFT JOIN forecast_quantiles AS q USING (model_no, origin_no, step)
)
SELECT * FROM final ORDER BY model, series_id, origin, step
