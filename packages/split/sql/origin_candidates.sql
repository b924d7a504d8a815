-- origin_candidates: every forecast origin with its target status and model-cutoff window (SPEC §8).
-- An origin is a grid timestamp o >= eval_start (and <= the run date): the instant the forecast is made.
-- Policy 'all' takes every step; 'non_overlapping' every horizon_steps-th step from the first eval step,
-- so targets of consecutive origins never overlap (valid for a pooled Diebold–Mariano test).
-- first_target_timestamp = the next grid step (null beyond the grid).
-- target_known_at = the greatest chosen-vintage available_at over the H target steps, NULL when any step is
-- beyond the grid or not public by the run date. Windows (only with a model cutoff c):
--   T1: target_known_at < c
--   T3: target_known_at IS NULL (not known at the run date: pending)
--   T2: o > c and target_known_at <= r (the run date)
--   straddles_cutoff: o <= c <= target_known_at <= r (in no window; dropped by origins)
-- member: the series' entity was a member of the universe at o, as known at o (the parent's member_spans,
-- docs/decisions/0021); a series without an entity, or an entity nothing names, always is. Origins of
-- non-members are not served (input_windows, origins) and counted in the manifest summary, so every
-- cross-section at o (the series with an origin at o) holds members only, a delisted company's before its
-- exit.
-- grain: (series_key, origin) — series_key from series_keys.sql
-- invariants: origin >= eval_start; for non_overlapping, origin_index differs by >= horizon_steps.
WITH source AS (
  SELECT
    g.series_key, k.frequency, g."timestamp", g.step_index, k.horizon_steps, k.lookback_steps,
    t.available_at AS target_available_at
  FROM series_grid AS g
  JOIN series_keys AS k USING (series_key)
  LEFT JOIN target_values AS t USING (series_key, step_index)
  -- Every frame below looks forward (lead, the next horizon_steps steps), so a step before eval_start is
  -- in no origin's frame: only the steps that can be origins are read (at FinVerse scale ~a third of the
  -- grid), with the same rows out.
  WHERE g."timestamp" >= $eval_start::TIMESTAMPTZ
),
-- Target status of every grid step as an origin, by a forward frame over the next horizon_steps grid steps
-- (a window, not a join: with policy 'all' a join would make origins × H rows).
renamed AS (
  SELECT
    series_key, frequency, "timestamp" AS origin, step_index AS origin_index, horizon_steps, lookback_steps,
    lead("timestamp") OVER (PARTITION BY series_key ORDER BY step_index) AS first_target_timestamp,
    count(target_available_at) OVER horizon AS n_target_steps_known,
    max(target_available_at) OVER horizon AS max_target_available_at
  FROM source
  WINDOW horizon AS (PARTITION BY series_key ORDER BY step_index ROWS BETWEEN 1 FOLLOWING AND horizon_steps FOLLOWING)
),
eligible AS (
  SELECT *, min(origin_index) OVER (PARTITION BY series_key) AS first_eval_index
  FROM renamed
  WHERE origin >= $eval_start::TIMESTAMPTZ AND origin <= $run_date::TIMESTAMPTZ
),
known AS (
  SELECT
    * EXCLUDE (first_eval_index, max_target_available_at),
    CASE WHEN n_target_steps_known = horizon_steps THEN max_target_available_at END AS target_known_at
  FROM eligible
  WHERE $origins_policy = 'all' OR (origin_index - first_eval_index) % horizon_steps = 0
),
final AS (
  SELECT
    k.series_key, k.frequency, k.origin, k.origin_index, k.horizon_steps, k.lookback_steps,
    k.first_target_timestamp, k.n_target_steps_known::INTEGER AS n_target_steps_known, k.target_known_at,
    CASE
      WHEN NOT $has_cutoff THEN NULL
      WHEN k.target_known_at < $model_cutoff::TIMESTAMPTZ THEN 'T1'
      WHEN k.target_known_at IS NULL THEN 'T3'
      WHEN k.origin > $model_cutoff::TIMESTAMPTZ THEN 'T2'
      ELSE 'straddles_cutoff'
    END AS "window",
    coalesce(m.member, true) AS member
  FROM known AS k
  JOIN series_keys AS s USING (series_key)
  LEFT JOIN split_member_spans AS m
    ON m.entity_id = s.entity_id
    AND (m."from" IS NULL OR m."from" <= k.origin)
    AND (m."to" IS NULL OR k.origin < m."to")
)
SELECT * FROM final
