-- segment_placed: every observed step of every series (latest view), placed on its frequency's calendar
-- grid and cut into non-overlapping segments of L steps (SPEC §7), for the series whose key is in
-- [$key_lo, $key_hi]. segment_steps.sql adds each step's return; buildSegments gathers these rows per
-- segment and computes the returns itself (docs/decisions/0035).
-- grain: one row per latest-view observation on the grid: (series_key, "timestamp"); several rows may share
--   (series_key, segment, step) in a malformed series, and which one counts is segment_steps.sql's rule.
--   series_key = the rank of series_id in `series` (1…n), which segment_stats maps back to series_id
-- invariants: segment k of a frequency covers grid positions [k·L, (k+1)·L) for every series, the grid
--   being counted from $epoch (a Monday): BD = weekdays, D = days, W = Monday-based weeks, M/Q/A =
--   calendar months/quarters/years, so one cross-section compares the same dates. 0 ≤ step < L.
--   Frequencies whose length is ≤ 0 are skipped; BD observations on a Saturday/Sunday are off the grid
--   and dropped. The local date of an instant is the UTC date of timestamp − 6 h (BD, D) or − 12 h (W, M,
--   Q, A). The grid is the macros' of @asof/duck (sql/macros.sql: grid_code, grid_offset_us, grid_day,
--   grid_step), the one definition the update's segment windows use too (update_segment_windows.sql).
WITH keyed_series AS (
  -- Integer keys group and sort several times faster than the VARCHAR ids (measureSegments' lists,
  -- segment_steps.sql's window). What a row's placement needs of its frequency (segment length, grid, local-day offset) is decided here, once per
  -- series, so the rows below do integer arithmetic only and compare no frequency text.
  SELECT series_id, n_revisions, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_key,
    CASE frequency
      WHEN 'BD' THEN $len_bd WHEN 'D' THEN $len_d WHEN 'W' THEN $len_w
      WHEN 'M' THEN $len_m WHEN 'Q' THEN $len_q WHEN 'A' THEN $len_a
    END::INTEGER AS segment_length,
    grid_code(frequency) AS grid,
    grid_offset_us(frequency) AS offset_us
  FROM series
),
placed_series AS (
  -- A range of keys at a time: buildSegments reads the rows of consecutive ranges (docs/decisions/0035).
  SELECT * FROM keyed_series WHERE segment_length > 0 AND series_key BETWEEN $key_lo AND $key_hi
),
source AS (
  -- Latest view (SPEC §1): series without revisions have one row per timestamp already, which spares
  -- the big panels a per-row window (and hold no withdrawals: a withdrawal counts as a revision).
  SELECT s.series_key, o."timestamp", o.value, s.segment_length, s.grid, s.offset_us
  FROM observations AS o JOIN placed_series AS s USING (series_id)
  WHERE s.n_revisions = 0
  UNION ALL
  -- arg_max_null, not arg_max: a latest vintage that is a withdrawal (value NULL, docs/decisions/0007)
  -- must win and then drop the key, not hand the slot back to the value it withdrew.
  SELECT any_value(s.series_key), o."timestamp", arg_max_null(o.value, o.available_at) AS value,
    any_value(s.segment_length), any_value(s.grid), any_value(s.offset_us)
  FROM observations AS o JOIN placed_series AS s USING (series_id)
  WHERE s.n_revisions > 0
  GROUP BY o.series_id, o."timestamp"
  HAVING arg_max_null(o.value, o.available_at) IS NOT NULL
),
renamed AS (
  SELECT
    series_key,
    "timestamp",
    value,
    segment_length,
    grid,
    grid_day("timestamp", offset_us, $epoch::DATE) AS d
  FROM source
),
gridded AS (
  SELECT series_key, "timestamp", value, segment_length, grid_step(d, grid, $epoch::DATE) AS pos
  FROM renamed
  WHERE grid <> 0 OR grid_weekday(d) < 5
),
segmented AS (
  SELECT
    series_key, "timestamp", value,
    CAST(floor(pos / segment_length) AS INTEGER) AS segment,
    CAST(pos - floor(pos / segment_length) * segment_length AS INTEGER) AS step
  FROM gridded
),
final AS (
  SELECT series_key, segment, step, "timestamp", value FROM segmented
)
SELECT * FROM final
