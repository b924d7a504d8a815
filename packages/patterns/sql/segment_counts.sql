-- segment_counts: per series and calendar segment, the exact part of segment_stats — counts, the least
-- value, the first and last timestamps — for segments with enough of their steps present.
-- grain: (series_key, segment)
-- invariants: only segments with n_steps ≥ $min_coverage · segment_length and at least $min_returns
--   returns appear (partial segments at the ends of a history are not segments). The numbers come from
--   segment_tallies, which buildSegments' TypeScript pass computes from each segment's placed rows by
--   segment_steps.sql's rule (measureSegments, docs/decisions/0035); this model restores their SQL types
--   (counts BIGINT as count(*), instants TIMESTAMPTZ from epoch µs) and adds each series' columns.
--   Every number is a count, a min or a max: the same in any row order.
--   series_key is segment_placed's integer key of series_id.
WITH source AS (
  SELECT * FROM segment_tallies
),
keyed_series AS (
  -- The same numbering as segment_placed.series_key.
  SELECT series_id, frequency, detail_category, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_key,
    CASE frequency
      WHEN 'BD' THEN $len_bd WHEN 'D' THEN $len_d WHEN 'W' THEN $len_w
      WHEN 'M' THEN $len_m WHEN 'Q' THEN $len_q WHEN 'A' THEN $len_a
    END::INTEGER AS segment_length
  FROM series
),
counted AS (
  SELECT series_key, segment, CAST(n_steps AS BIGINT) AS n_steps, CAST(n_returns AS BIGINT) AS n_returns,
    CAST(n_positive AS BIGINT) AS n_positive, min_value,
    make_timestamptz(CAST(first_us AS BIGINT)) AS first_timestamp,
    make_timestamptz(CAST(last_us AS BIGINT)) AS last_timestamp
  FROM source
),
final AS (
  SELECT k.series_id, k.frequency, k.detail_category, k.segment_length, c.*
  FROM counted AS c JOIN keyed_series AS k USING (series_key)
  WHERE c.n_steps >= $min_coverage * k.segment_length AND c.n_returns >= $min_returns
)
SELECT * FROM final
