-- nixtla_long: one frequency of the as-of view in Nixtla's long format (unique_id, ds, y) for
-- statsforecast / neuralforecast / mlforecast, with the series' descriptive columns beside each row (Nixtla's
-- static features). ds is the New York date of the timestamp (the session's day for bars, the period's
-- last day for M/Q/A: docs/decisions/0004), staged as local_dates because SQL works in UTC only
-- (docs/decisions/0024).
-- grain: (unique_id, ds)
-- Reads the tables latest_values (latest_values.sql), series_static and local_dates; $frequency picks one.
WITH source AS (
  SELECT v.series_id, v.timestamp_us, v.value, s.* EXCLUDE (series_id)
  FROM latest_values AS v JOIN series_static AS s USING (series_id)
  WHERE s.frequency = $frequency
),
renamed AS (
  SELECT
    src.series_id AS unique_id,
    d.day::DATE AS ds,
    src.value AS y,
    src.* EXCLUDE (series_id, timestamp_us, value)
  FROM source AS src JOIN local_dates AS d ON d.us = src.timestamp_us
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final ORDER BY unique_id, ds
