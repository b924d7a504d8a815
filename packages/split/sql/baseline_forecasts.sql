-- baseline_forecasts: one part of the forecasts file (schemas/forecast.schema.json): the rows $lo ≤ seq < $hi
-- of forecast_chunk (ForecastParts: model_no, model_rank, origin_no, step, value and ARIMA's and GARCH's
-- quantile columns q0.05…q0.95) and of forecast_chunk_points (the point baselines, without quantile
-- columns: UNION BY NAME gives them NULL there) — numbers only, cheap to append — with the
-- model name from forecast_models and the series_id and origin from forecast_origins: the origin as the
-- split's origins.parquet stores it, TIMESTAMPTZ (microseconds, UTC), made from its epoch microseconds
-- (docs/decisions/0060).
-- grain: (model, series_id, origin, step)
-- invariants: model_rank is the model's place in name order and origin_no runs in (series_id, origin)
-- order (baseline_series, baseline_origins), so ORDER BY (model_rank, origin_no, step) is the grain's
-- order, compared on integers; seq runs in that order too, so consecutive parts join into the file.
WITH source AS (
  SELECT * EXCLUDE (seq) FROM forecast_chunk WHERE seq >= $lo AND seq < $hi
  UNION ALL BY NAME
  SELECT * EXCLUDE (seq) FROM forecast_chunk_points WHERE seq >= $lo AND seq < $hi
),
renamed AS (
  SELECT m.model, o.series_id, make_timestamptz(o.origin_us) AS origin, f.* EXCLUDE (model_no)
  FROM source AS f
  JOIN forecast_models AS m USING (model_no)
  JOIN forecast_origins AS o USING (origin_no)
),
final AS (
  SELECT * FROM renamed
)
SELECT * EXCLUDE (model_rank, origin_no) FROM final ORDER BY model_rank, origin_no, step
