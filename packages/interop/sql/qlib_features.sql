-- qlib_features: the daily price fields Qlib's binary store holds (open, high, low, close, volume,
-- factor), one row per (symbol, field, day) of the as-of view, with the day's position in the export's
-- calendar (calendars/day.txt). The symbol and field of each series come from qlib_series (chosen in
-- TypeScript from the series ids, packages/interop/README.md).
-- grain: (symbol, field, day_index)
-- Reads the tables latest_values, qlib_series, local_dates and qlib_calendar.
WITH source AS (
  SELECT q.symbol, q.field, v.timestamp_us, v.value
  FROM latest_values AS v JOIN qlib_series AS q USING (series_id)
),
renamed AS (
  SELECT src.symbol, src.field, c.day_index, src.value
  FROM source AS src
  JOIN local_dates AS d ON d.us = src.timestamp_us
  JOIN qlib_calendar AS c ON c.day = d.day
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final ORDER BY symbol, field, day_index
