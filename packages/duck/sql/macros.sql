-- macros: the expressions several of asof's models and queries share, each defined once here instead of
-- copied into each (issue 53 item 6: the update path's grid rule was a twin of segment_placed.sql's).
-- Every connection Duck opens defines them (open-duck.ts, connectInUtc) as TEMP macros: they live in the
-- connection, never in a database file, and a read of a kept work database finds them the same.
-- A macro is expanded where it is called, so a model that calls one computes exactly what the expression
-- written out would (same types, same values, same plan).

-- iso_instant: an instant as the ISO text asof writes (microseconds, "Z"). Duck sets TimeZone to UTC, so
-- a TIMESTAMPTZ prints as its UTC time (docs/decisions/0024).
CREATE OR REPLACE TEMP MACRO iso_instant(ts) AS strftime(ts, '%Y-%m-%dT%H:%M:%S.%fZ');

-- The calendar grid on which segment_placed.sql (@asof/patterns) cuts segments and the update
-- finds the first segment a change falls in (update_segment_windows.sql, update-segments.ts of @asof/build).
-- grid_code: a frequency's grid as an integer, so per-row arithmetic compares no frequency text:
--   0 = BD (weekdays), 1 = D (days), 2 = W (Monday weeks), 3/4/5 = M/Q/A (calendar months/quarters/years).
CREATE OR REPLACE TEMP MACRO grid_code(freq) AS
  CASE freq WHEN 'BD' THEN 0 WHEN 'D' THEN 1 WHEN 'W' THEN 2 WHEN 'M' THEN 3 WHEN 'Q' THEN 4 WHEN 'A' THEN 5 END;
-- grid_offset_us: how far an instant is shifted back before its UTC date is its local date: 6 h for BD and
--   D (session closes and end-of-day stamps of UTC−6…UTC+9 zones), 12 h for W, M, Q, A (period ends at
--   23:59:59.999999 local, any zone UTC−12…UTC+12). SQL works in UTC and series carry no time zone.
CREATE OR REPLACE TEMP MACRO grid_offset_us(freq) AS
  (CASE WHEN freq IN ('BD', 'D') THEN 6 ELSE 12 END) * 3600000000;
-- grid_day: the local date of instant ts (shifted back offset_us) as days after epoch (a Monday).
CREATE OR REPLACE TEMP MACRO grid_day(ts, offset_us, epoch) AS
  CAST(floor((epoch_us(ts) - offset_us) / 86400000000) AS BIGINT) - CAST(epoch - DATE '1970-01-01' AS BIGINT);
-- grid_weekday: 0 = Monday … 6 = Sunday of a grid_day d (epoch is a Monday). BD rows on 5 and 6 are off
--   the grid: segment_placed drops them.
CREATE OR REPLACE TEMP MACRO grid_weekday(d) AS d - 7 * CAST(floor(d / 7) AS BIGINT);
-- grid_step: the position of grid_day d on grid g counted from epoch. A BD weekend day takes the Friday's
--   position (least(…, 4)); segment_placed has dropped those rows before.
CREATE OR REPLACE TEMP MACRO grid_step(d, g, epoch) AS
  CASE g
    WHEN 0 THEN 5 * CAST(floor(d / 7) AS BIGINT) + least(grid_weekday(d), 4)
    WHEN 1 THEN d
    WHEN 2 THEN CAST(floor(d / 7) AS BIGINT)
    WHEN 3 THEN datediff('month', epoch, epoch + CAST(d AS INTEGER))
    WHEN 4 THEN datediff('quarter', epoch, epoch + CAST(d AS INTEGER))
    WHEN 5 THEN datediff('year', epoch, epoch + CAST(d AS INTEGER))
  END;
-- grid_position: an instant's position in its frequency's grid, all of the above in one call.
CREATE OR REPLACE TEMP MACRO grid_position(ts, freq, epoch) AS
  grid_step(grid_day(ts, grid_offset_us(freq), epoch), grid_code(freq), epoch);
