-- segment_stats: per series and calendar segment, the return statistics and the threshold-mode label
-- of SPEC §7, for segments with enough of their steps present.
-- grain: (series_id, segment)
-- invariants: one row per segment_counts row (segments with enough of their steps present: partial
--   segments at the ends of a history are not segments); label is never NULL: 'extreme' when some run of
--   ≥ $run_length consecutive outliers of segment_outliers (returns beyond sigma · std(r) of mean(r), sample
--   std of the segment's returns; consecutive = adjacent grid steps), else 'uptrend' when the share of
--   positive returns is ≥ $up_share, 'downtrend' when ≤ $down_share, else 'volatile'.
--   series_key is segment_placed's integer key of series_id (segment_characteristics is keyed by it).
--   The counts come from segment_counts. ret_mean and ret_std (avg and stddev_samp of the segment's
--   returns in step order: DuckDB's own operations, bit for bit, stats/return-moments.ts) and the outliers
--   come from buildSegments' TypeScript pass (measureSegments: segment_characteristics and
--   segment_outliers, docs/decisions/0031 and 0035). The severities' float sums follow
--   this query's window (sorted per segment) and aggregates, whatever order segment_outliers holds: run on
--   one thread, they keep one order, so segments.parquet is byte-reproducible.
WITH source AS (
  -- A left join: a labelled segment without moments would be a bug, which buildSegments checks for.
  SELECT c.*, m.ret_mean, m.ret_std
  FROM segment_counts AS c LEFT JOIN segment_characteristics AS m USING (series_key, segment)
),
outliers AS (
  -- Consecutive grid steps share an island id (step − rank among outliers).
  SELECT o.series_key, o.segment, o.step - row_number() OVER (PARTITION BY o.series_key, o.segment ORDER BY o.step) AS island,
    o.z_abs
  FROM segment_outliers AS o
),
runs AS (
  SELECT series_key, segment, island, count(*) AS run_len, sum(z_abs) AS run_excess
  FROM outliers GROUP BY series_key, segment, island
),
run_stats AS (
  SELECT series_key, segment, max(run_len) AS max_outlier_run,
    sum(run_excess) FILTER (WHERE run_len >= $run_length) AS extreme_severity
  FROM runs GROUP BY series_key, segment
),
renamed AS (
  SELECT
    z.series_id, z.series_key, z.frequency, z.detail_category, z.segment, z.segment_length,
    z.first_timestamp, z.last_timestamp, z.n_steps,
    z.n_steps / z.segment_length AS coverage,
    CASE WHEN z.min_value <= 0 THEN 'difference' ELSE 'ratio' END AS return_kind,
    z.n_returns, z.n_positive, z.n_positive / z.n_returns AS positive_share,
    z.ret_mean, z.ret_std,
    coalesce(r.max_outlier_run, 0) AS max_outlier_run,
    coalesce(r.max_outlier_run, 0) >= $run_length AS is_extreme,
    coalesce(r.extreme_severity, 0) AS extreme_severity
  FROM source AS z LEFT JOIN run_stats AS r USING (series_key, segment)
),
final AS (
  SELECT
    *,
    CASE
      WHEN is_extreme THEN 'extreme'
      WHEN positive_share >= $up_share THEN 'uptrend'
      WHEN positive_share <= $down_share THEN 'downtrend'
      ELSE 'volatile'
    END AS label
  FROM renamed
)
SELECT * FROM final
