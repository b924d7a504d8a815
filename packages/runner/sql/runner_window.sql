-- runner_window: the served rows a window of consecutive pairs ($first..$last, whole origins) can be served:
-- per series, timestamps from its earliest lookback_start to its latest origin in the window, public by
-- that origin. A window's HistoryStore holds these rows only, so memory is bounded by the window, not by
-- the split. Reads runner_pairs and runner_served.
-- grain: (series_id, ts, av, value)
WITH windows AS (
  SELECT series_id, min(lookback_start_us) AS lo, max(origin_us) AS hi
  FROM runner_pairs
  WHERE pair_no BETWEEN $first AND $last AND lookback_start_us IS NOT NULL
  GROUP BY series_id
),
final AS (
  SELECT r.series_id, r.ts, r.av, r.value, r.step_index
  FROM runner_served AS r
  JOIN windows AS w USING (series_id)
  WHERE r.ts BETWEEN w.lo AND w.hi AND r.av <= w.hi
)
SELECT * FROM final ORDER BY series_id, ts, av
