-- segment_outliers: the returns of each counted segment more than $sigma standard deviations from the
-- segment's mean return (SPEC §7's outliers), with their distance in standard deviations.
-- grain: (series_key, segment, step)
-- invariants: only segments of segment_counts whose ret_std > 0; z_abs = |ret − ret_mean| / ret_std > $sigma.
--   ret_mean and ret_std come from segment_characteristics (buildSegments' TypeScript pass). Each row's
--   number is its own, with no sum across rows: the same at any thread count and in any row order, so
--   this model runs on all threads; segment_stats sums the runs on one (docs/decisions/0031).
WITH source AS (
  SELECT series_key, segment, step, ret FROM segment_steps
),
moments AS (
  SELECT c.series_key, c.segment, m.ret_mean, m.ret_std
  FROM segment_counts AS c JOIN segment_characteristics AS m USING (series_key, segment)
),
final AS (
  SELECT r.series_key, r.segment, r.step, abs(r.ret - z.ret_mean) / z.ret_std AS z_abs
  FROM source AS r JOIN moments AS z USING (series_key, segment)
  WHERE z.ret_std > 0 AND abs(r.ret - z.ret_mean) > $sigma * z.ret_std
)
SELECT * FROM final
