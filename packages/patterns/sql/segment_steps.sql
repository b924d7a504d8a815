-- segment_steps: the rows of segment_placed (every observed step, placed on its calendar grid and cut
-- into segments of L steps) with each step's return inside its segment (SPEC §7).
-- grain: (series_key, segment, step); series_key = the rank of series_id in `series` (1…n), which
--   segment_stats maps back to series_id
-- invariants: ret is NULL for the first observed step of a segment (a return never reaches into the
--   previous segment). Of several observations on one grid position (none in a well-formed series) the
--   one with the latest timestamp is kept, and returns skip the others (exact for up to two per position).
--   buildSegments computes the same rule in TypeScript (segment-walk.ts, docs/decisions/0035); this model
--   serves the FinTSB export's rows, and a test holds the two to the same numbers.
WITH source AS (
  SELECT * FROM segment_placed
),
ordered AS (
  -- One sort serves all: a dedupe by (series_key, pos) would cost a hash aggregate over every row.
  SELECT
    series_key, segment, step, "timestamp", value,
    lead(step) OVER w AS next_step,
    CASE WHEN lag(step) OVER w = step THEN lag(value, 2) OVER w ELSE lag(value) OVER w END AS prev_value,
    min(value) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS min_value
  FROM source
  WINDOW w AS (PARTITION BY series_key, segment ORDER BY step, "timestamp")
),
final AS (
  SELECT
    series_key, segment, step, "timestamp", value,
    CASE
      WHEN prev_value IS NULL THEN NULL
      -- Levels that touch or cross zero: a ratio would be meaningless or flip sign, use differences.
      WHEN min_value <= 0 THEN value - prev_value
      ELSE value / prev_value - 1
    END AS ret
  FROM ordered
  WHERE next_step IS DISTINCT FROM step
)
-- Not sorted on the grain: that sort cost ~40% of this model (issue 21). What reads the table takes its
-- order from the grain itself (fintsb_rows.sql).
SELECT * FROM final
