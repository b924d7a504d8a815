-- series: one row per series with its taxonomy unit and history statistics (SPEC §3).
-- grain: series_id
-- invariants: every series has a known registry unit (checked in invariant_violations); eval_target is
--   true only for evaluated units with at least the unit's minimum lookback of observations first
--   released before $eval_start (SPEC §6, FinVerse Table 2), and with observations at or after
--   $eval_start (a series that ended before the evaluation has nothing to score). first/last_timestamp and
--   n_obs count timestamps that ever had a value, even if a later vintage withdrew it (docs/decisions/0007).
WITH source AS (
  SELECT * FROM stg_series
),
stats AS (
  -- Grouped on the integer series_rank (1:1 with series_id): hashing 171M strings at FinVerse scale
  -- costs several times more than hashing integers.
  SELECT
    any_value(series_id) AS series_id,
    min("timestamp") AS first_timestamp,
    max("timestamp") AS last_timestamp,
    count(*) FILTER (WHERE is_first_vintage AND value IS NOT NULL) AS n_obs,
    -- every vintage after a key's first: value revisions, withdrawals (value NULL) and restorations alike,
    -- so n_revisions = 0 still means "one row per timestamp" to readers that skip the as-of step.
    count(*) FILTER (WHERE NOT is_first_vintage) AS n_revisions,
    count(*) FILTER (WHERE is_first_vintage AND available_at < $eval_start::TIMESTAMPTZ) AS n_before
  FROM observations
  GROUP BY series_rank
),
renamed AS (
  SELECT
    s.series_id, s.source, s.source_key, s.title, s.unit, s.frequency, s.scope, s.category, s.detail_category,
    s.entity_id, s.entity_name, s.currency, s.seasonal_adjustment, s.fiscal_year_end, s.is_synthetic,
    s.universe_kind,
    coalesce(u.eval_target, false)
      AND coalesce(st.n_before, 0) >= coalesce(z.minimum_lookback, 0)
      AND coalesce(st.last_timestamp >= $eval_start::TIMESTAMPTZ, false) AS eval_target,
    st.first_timestamp, st.last_timestamp,
    coalesce(st.n_obs, 0) AS n_obs,
    coalesce(st.n_revisions, 0) AS n_revisions
  FROM source AS s
  LEFT JOIN stats AS st USING (series_id)
  LEFT JOIN registry_units AS u
    ON u.scope = s.scope AND u.category = s.category AND u.detail_category = s.detail_category AND u.frequency = s.frequency
  LEFT JOIN registry_horizons AS z ON z.frequency = s.frequency
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
