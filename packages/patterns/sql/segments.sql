-- segments: the published table of SPEC §7 — every labelled calendar segment of every series, with its
-- threshold and quota labels and its sequence characteristics (computed in TypeScript over the
-- segment's returns into segment_characteristics).
-- grain: (series_id, segment)
-- invariants: one row per segment_stats row; label is never NULL; quota_label may be NULL (the
--   remainder of a cross-section, or not a member); member says whether the segment's entity was a member
--   of the universe when its cross-section formed (segment_members.sql): only members have a quota_label
--   and a cross_section_size (members counted); a characteristic is NULL where it is undefined (constant
--   returns, rank-deficient ADF design). grid_epoch is the Monday the calendar grid counts from.
WITH source AS (
  SELECT * FROM segment_stats
),
renamed AS (
  SELECT
    s.series_id, s.frequency, s.detail_category, s.segment, s.segment_length, $epoch::DATE AS grid_epoch,
    s.first_timestamp, s.last_timestamp, s.n_steps, s.coverage, s.return_kind, s.n_returns, s.n_positive,
    s.positive_share, s.ret_mean, s.ret_std, s.max_outlier_run, s.extreme_severity,
    s.label, q.quota_label, q.cross_section_size, m.member,
    CASE WHEN isnan(c.adf_stat) THEN NULL ELSE c.adf_stat END AS adf_stat,
    c.adf_used_lag, c.adf_nobs,
    CASE WHEN isnan(c.acf1) THEN NULL ELSE c.acf1 END AS acf1,
    CASE WHEN isnan(c.forecastability) THEN NULL ELSE c.forecastability END AS forecastability
  FROM source AS s
  JOIN segment_members AS m USING (series_id, segment)
  LEFT JOIN segment_quota AS q USING (series_id, segment)
  LEFT JOIN segment_characteristics AS c USING (series_key, segment)
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
