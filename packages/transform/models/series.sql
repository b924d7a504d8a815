-- series: one row per series with its taxonomy unit and history statistics (SPEC §3).
-- grain: series_id
-- invariants: every series has a known registry unit (checked in invariant_violations); eval_target is
--   true only for evaluated units with at least the unit's minimum lookback of observations first
--   released before eval_start (SPEC §6, FinVerse Table 2), and with one full horizon after eval_start:
--   an origin at or after it plus prediction_length target steps (a series that ended before the
--   evaluation, or too soon after it, could never be scored; the build warns with their count) — unless
--   its entity left the universe at or after eval_start (an index removal or an EDGAR delisting in
--   `membership`): a series cut short by its entity's exit keeps its origins before the exit, or the
--   evaluation would hold only the survivors (docs/decisions/0021). Price files' last bars are not exits
--   (a file ends where its download window ends). universe_kind is 'point_in_time' for every series of an
--   entity a membership file names (its membership is known at each instant), else the source's.
--   Vendor-adjusted price series (`pxadj:`, a Stooq file or any kept `Adj` column) are never eval targets:
--   each download restates their whole history in another adjustment basis, so a target from a later
--   download cannot be compared with inputs from an earlier one (issue 49; docs/decisions/0044).
--   first/last_timestamp and n_obs count timestamps that ever had a value, even if a later vintage
--   withdrew it (docs/decisions/0007). Statistics come from series_stats.sql.
WITH source AS (
  SELECT * FROM stg_series
),
entity_membership AS (
  SELECT
    entity_id,
    bool_or(source = 'membership_csv') AS indexed,
    bool_or(source <> 'price_bars' AND "to" >= $eval_start::TIMESTAMPTZ) AS exited
  FROM membership
  GROUP BY entity_id
),
renamed AS (
  SELECT
    s.series_id, s.source, s.source_key, s.title, s.unit, s.frequency, s.scope, s.category, s.detail_category,
    s.entity_id, s.entity_name, s.currency, s.seasonal_adjustment, s.fiscal_year_end, s.is_synthetic,
    CASE WHEN x.indexed THEN 'point_in_time' ELSE s.universe_kind END AS universe_kind,
    coalesce(u.eval_target, false)
      AND NOT regexp_matches(s.series_id, '^(syn:)?pxadj:')
      AND coalesce(st.n_before, 0) >= coalesce(z.minimum_lookback, 0)
      AND (
        coalesce(st.n_from_eval_start, 0) >= 1 + coalesce(z.prediction_length, 0)
        OR (coalesce(x.exited, false) AND coalesce(st.n_from_eval_start, 0) >= 1)
      ) AS eval_target,
    st.first_timestamp, st.last_timestamp,
    coalesce(st.n_obs, 0) AS n_obs,
    coalesce(st.n_revisions, 0) AS n_revisions
  FROM source AS s
  LEFT JOIN series_stats AS st USING (series_id)
  LEFT JOIN registry_units AS u
    ON u.scope = s.scope AND u.category = s.category AND u.detail_category = s.detail_category AND u.frequency = s.frequency
  LEFT JOIN registry_horizons AS z ON z.frequency = s.frequency
  LEFT JOIN entity_membership AS x ON x.entity_id = s.entity_id
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
