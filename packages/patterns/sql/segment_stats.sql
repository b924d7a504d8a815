-- segment_stats: per series and calendar segment, the return statistics and the threshold-mode label
-- of SPEC §7, for segments with enough of their steps present.
-- grain: (series_id, segment)
-- invariants: only segments with n_steps ≥ $min_coverage · segment_length and at least $min_returns
--   returns appear (partial segments at the ends of a history are not segments); label is never NULL:
--   'extreme' when some run of ≥ $run_length consecutive returns has |r − mean(r)| > $sigma · std(r)
--   (sample std of the segment's returns; consecutive = adjacent grid steps), else 'uptrend' when the share of positive returns is
--   ≥ $up_share, 'downtrend' when ≤ $down_share, else 'volatile'.
--   series_key is segment_steps' integer key of series_id (segment_characteristics is keyed by it).
WITH source AS NOT MATERIALIZED (
  -- Read twice (counted, outliers) as two scans of the table, rather than copied into a CTE buffer
  -- of every step first; a single-threaded scan reads the table in its stored order either way.
  SELECT * FROM segment_steps
),
keyed_series AS (
  -- The same numbering as segment_steps.series_key.
  SELECT series_id, frequency, detail_category, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_key,
    CASE frequency
      WHEN 'BD' THEN $len_bd WHEN 'D' THEN $len_d WHEN 'W' THEN $len_w
      WHEN 'M' THEN $len_m WHEN 'Q' THEN $len_q WHEN 'A' THEN $len_a
    END::INTEGER AS segment_length
  FROM series
),
counted AS (
  SELECT series_key, segment, count(*) AS n_steps, count(ret) AS n_returns,
    count(*) FILTER (WHERE ret > 0) AS n_positive, avg(ret) AS ret_mean, stddev_samp(ret) AS ret_std,
    min(value) AS min_value, min("timestamp") AS first_timestamp, max("timestamp") AS last_timestamp
  FROM source
  GROUP BY series_key, segment
),
sized AS (
  SELECT k.series_id, k.frequency, k.detail_category, k.segment_length, c.*
  FROM counted AS c JOIN keyed_series AS k USING (series_key)
  WHERE c.n_steps >= $min_coverage * k.segment_length AND c.n_returns >= $min_returns
),
outliers AS (
  -- Returns beyond $sigma·std; consecutive grid steps share an island id (step − rank among outliers).
  SELECT o.series_key, o.segment, o.step - row_number() OVER (PARTITION BY o.series_key, o.segment ORDER BY o.step) AS island,
    o.z_abs
  FROM (
    SELECT r.series_key, r.segment, r.step, abs(r.ret - z.ret_mean) / z.ret_std AS z_abs
    FROM source AS r JOIN sized AS z USING (series_key, segment)
    WHERE z.ret_std > 0 AND abs(r.ret - z.ret_mean) > $sigma * z.ret_std
  ) AS o
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
  FROM sized AS z LEFT JOIN run_stats AS r USING (series_key, segment)
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
