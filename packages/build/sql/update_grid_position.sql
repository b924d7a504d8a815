-- update_grid_position: macros giving an instant's grid position in its frequency's calendar grid, as
-- segment_placed.sql of @asof/patterns places observations: the local day is the UTC day of the instant
-- shifted back 6 h (BD, D) or 12 h (W, M, Q, A); BD counts weekdays (a weekend day takes the Friday's
-- position, which segment_placed drops), D days, W Monday weeks, M/Q/A calendar periods from the epoch.
CREATE OR REPLACE MACRO update_local_day(ts, freq) AS
  CAST(floor((epoch_us(ts) - (CASE WHEN freq IN ('BD', 'D') THEN 6 ELSE 12 END) * 3600000000) / 86400000000) AS BIGINT);
CREATE OR REPLACE MACRO update_grid_position(ts, freq, epoch) AS
  CASE freq
    WHEN 'BD' THEN 5 * CAST(floor((update_local_day(ts, freq) - CAST(epoch - DATE '1970-01-01' AS BIGINT)) / 7) AS BIGINT)
      + least((update_local_day(ts, freq) - CAST(epoch - DATE '1970-01-01' AS BIGINT))
        - 7 * CAST(floor((update_local_day(ts, freq) - CAST(epoch - DATE '1970-01-01' AS BIGINT)) / 7) AS BIGINT), 4)
    WHEN 'D' THEN update_local_day(ts, freq) - CAST(epoch - DATE '1970-01-01' AS BIGINT)
    WHEN 'W' THEN CAST(floor((update_local_day(ts, freq) - CAST(epoch - DATE '1970-01-01' AS BIGINT)) / 7) AS BIGINT)
    WHEN 'M' THEN datediff('month', epoch, DATE '1970-01-01' + CAST(update_local_day(ts, freq) AS INTEGER))
    WHEN 'Q' THEN datediff('quarter', epoch, DATE '1970-01-01' + CAST(update_local_day(ts, freq) AS INTEGER))
    WHEN 'A' THEN datediff('year', epoch, DATE '1970-01-01' + CAST(update_local_day(ts, freq) AS INTEGER))
  END;
