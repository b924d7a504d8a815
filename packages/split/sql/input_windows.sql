-- input_windows: the exact input window of every served origin: the first timestamp and the number of
-- timestamps of the last lookback_steps public steps (as-of view at the origin, timestamps <= origin).
-- A series whose every step is first released by its own timestamp (bars) sees all grid steps <= o at o, so
-- its window is the last L grid steps (a frame, no join). Other series reach back past the steps not yet
-- released at o: the last L public steps lie within the L + u grid steps ending at o, u = the number of grid
-- steps <= o not yet released at o; those candidate steps are enumerated (generate_series) and equi-joined.
-- A step whose current row at o is a withdrawal (value NULL, docs/decisions/0007) is not public at o either:
-- series with withdrawals take the second path, with u widened by their withdrawals up to o.
-- grain: (series_key, origin) — series_key from series_keys.sql
-- invariants: n_input_steps <= lookback_steps; lookback_start <= origin.
WITH source AS (
  SELECT series_key, origin, origin_index, lookback_steps
  FROM origin_candidates
  WHERE "window" IS DISTINCT FROM 'straddles_cutoff' AND member
),
-- Withdrawal rows with the instant a value was published again (null: withdrawn for good). The build
-- collapses repeated withdrawals, so the next row of the timestamp is always a value. withdrawn_vintages
-- holds every vintage of each withdrawn timestamp, of any age.
withdrawals AS (
  SELECT series_key, "timestamp", withdrawn_at, restored_at
  FROM (
    SELECT
      series_key, "timestamp", value, available_at AS withdrawn_at,
      lead(available_at) OVER (PARTITION BY series_key, "timestamp" ORDER BY available_at) AS restored_at
    FROM withdrawn_vintages
  )
  WHERE value IS NULL
),
grid AS (
  SELECT
    g.series_key, g."timestamp", g.step_index, g.first_available_at,
    bool_or(g.first_available_at > g."timestamp") OVER (PARTITION BY g.series_key)
      OR g.series_key IN (SELECT series_key FROM withdrawals) AS has_late,
    first_value(g."timestamp") OVER (
      PARTITION BY g.series_key ORDER BY g.step_index ROWS BETWEEN k.lookback_steps - 1 PRECEDING AND CURRENT ROW
    ) AS last_steps_start
  FROM series_grid AS g
  JOIN series_keys AS k USING (series_key)
),
renamed AS (
  SELECT s.*, g.has_late, g.last_steps_start
  FROM source AS s
  JOIN grid AS g ON g.series_key = s.series_key AND g.step_index = s.origin_index
),
on_time AS (
  SELECT series_key, origin, last_steps_start AS lookback_start, least(lookback_steps, origin_index) AS n_input_steps
  FROM renamed
  WHERE NOT has_late
),
late_steps AS (
  SELECT series_key, "timestamp", first_available_at FROM grid WHERE has_late AND first_available_at > "timestamp"
),
unreleased AS (
  SELECT r.series_key, r.origin, count(*) AS n_unreleased
  FROM renamed AS r
  JOIN late_steps AS l
    ON l.series_key = r.series_key AND l."timestamp" <= r.origin AND l.first_available_at > r.origin
  WHERE r.has_late
  GROUP BY r.series_key, r.origin
),
-- An upper bound on the steps <= o withdrawn at o (restorations ignored): enough to widen the candidates.
withdrawn AS (
  SELECT r.series_key, r.origin, count(*) AS n_withdrawn
  FROM renamed AS r
  JOIN withdrawals AS w ON w.series_key = r.series_key AND w."timestamp" <= r.origin AND w.withdrawn_at <= r.origin
  WHERE r.has_late
  GROUP BY r.series_key, r.origin
),
candidate_steps AS (
  SELECT
    r.series_key, r.origin, r.lookback_steps,
    unnest(generate_series(
      greatest(1, r.origin_index - r.lookback_steps - coalesce(u.n_unreleased, 0) - coalesce(w.n_withdrawn, 0) + 1),
      r.origin_index
    )) AS step_index
  FROM renamed AS r
  LEFT JOIN unreleased AS u USING (series_key, origin)
  LEFT JOIN withdrawn AS w USING (series_key, origin)
  WHERE r.has_late
),
public_steps AS (
  SELECT c.series_key, c.origin, g."timestamp"
  FROM candidate_steps AS c
  JOIN grid AS g ON g.series_key = c.series_key AND g.step_index = c.step_index
  WHERE g.first_available_at <= c.origin
    AND NOT EXISTS (
      SELECT 1 FROM withdrawals AS w
      WHERE w.series_key = c.series_key AND w."timestamp" = g."timestamp" AND w.withdrawn_at <= c.origin
        AND (w.restored_at IS NULL OR w.restored_at > c.origin)
    )
  QUALIFY row_number() OVER (PARTITION BY c.series_key, c.origin ORDER BY g.step_index DESC) <= c.lookback_steps
),
late AS (
  SELECT series_key, origin, min("timestamp") AS lookback_start, count(*) AS n_input_steps
  FROM public_steps
  GROUP BY series_key, origin
),
final AS (
  SELECT series_key, origin, lookback_start, n_input_steps::INTEGER AS n_input_steps FROM on_time
  UNION ALL
  SELECT series_key, origin, lookback_start, n_input_steps::INTEGER AS n_input_steps FROM late
)
SELECT * FROM final
