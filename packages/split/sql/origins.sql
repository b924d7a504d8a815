-- origins: the evaluation task list — one row per (series, origin) served, with its input window and
-- target status (columns described in origin_candidates.sql and packages/split/README.md).
-- grain: (series_id, origin)
-- invariants: every origin has exactly one of T1/T2/T3 when a model cutoff is given (straddling origins are
--   dropped and counted in the manifest summary); every origin's entity is a member at it (origins of
--   non-members are dropped and counted too); lookback_start is the first input timestamp.
WITH source AS (
  SELECT * EXCLUDE (member) FROM origin_candidates WHERE "window" IS DISTINCT FROM 'straddles_cutoff' AND member
),
input_stats AS (
  SELECT series_key, origin, lookback_start, n_input_steps FROM input_windows
),
renamed AS (
  SELECT
    s.series_key, s.frequency, s.origin, s.origin_index, s.lookback_steps,
    i.lookback_start, coalesce(i.n_input_steps, 0) AS n_input_steps,
    s.horizon_steps, s.first_target_timestamp, s.n_target_steps_known, s.target_known_at, s."window"
  FROM source AS s
  LEFT JOIN input_stats AS i USING (series_key, origin)
),
served AS (
  SELECT * FROM renamed
),
-- series_id back from series_keys (the split works on the integer key; see series_keys.sql).
final AS (
  SELECT k.series_id, v.* FROM served AS v JOIN series_keys AS k USING (series_key)
)
SELECT * FROM final
