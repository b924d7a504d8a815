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
--   and dropped. The local date of an instant is the UTC date of timestamp − 6 h (BD, D: session closes and
--   end-of-day stamps of UTC−6…UTC+9 zones) or − 12 h (W, M, Q, A: period ends at 23:59:59.999999
--   local, any zone UTC−12…UTC+12) — SQL here works in UTC (decision 0024), and series carry no time zone.
WITH keyed_series AS (
  -- Integer keys group and sort several times faster than the VARCHAR ids (measureSegments' lists,
  -- segment_steps.sql's window). What a row's placement needs of its frequency (segment length, grid, local-day offset) is decided here, once per
  -- series, so the rows below do integer arithmetic only and compare no frequency text.
  SELECT series_id, n_revisions, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_key,
    CASE frequency
      WHEN 'BD' THEN $len_bd WHEN 'D' THEN $len_d WHEN 'W' THEN $len_w
      WHEN 'M' THEN $len_m WHEN 'Q' THEN $len_q WHEN 'A' THEN $len_a
    END::INTEGER AS segment_length,
    CASE frequency WHEN 'BD' THEN 0 WHEN 'D' THEN 1 WHEN 'W' THEN 2 WHEN 'M' THEN 3 WHEN 'Q' THEN 4 WHEN 'A' THEN 5 END AS grid,
    (CASE WHEN frequency IN ('BD', 'D') THEN 6 ELSE 12 END) * 3600000000 AS offset_us
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
    CAST(floor((epoch_us("timestamp") - offset_us) / 86400000000) AS BIGINT) - CAST($epoch::DATE - DATE '1970-01-01' AS BIGINT) AS d
  FROM source
),
placed AS (
  SELECT *, CAST(floor(d / 7) AS BIGINT) AS w
  FROM renamed
),
gridded AS (
  SELECT
    series_key, "timestamp", value, segment_length,
    CASE grid
      WHEN 0 THEN 5 * w + (d - 7 * w)
      WHEN 1 THEN d
      WHEN 2 THEN w
      WHEN 3 THEN datediff('month', $epoch::DATE, $epoch::DATE + CAST(d AS INTEGER))
      WHEN 4 THEN datediff('quarter', $epoch::DATE, $epoch::DATE + CAST(d AS INTEGER))
      WHEN 5 THEN datediff('year', $epoch::DATE, $epoch::DATE + CAST(d AS INTEGER))
    END AS pos
  FROM placed
  WHERE grid <> 0 OR d - 7 * w < 5
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
