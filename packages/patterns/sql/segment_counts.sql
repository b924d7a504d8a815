-- segment_counts: per series and calendar segment of segment_steps, the exact part of segment_stats —
-- counts, the least value, the first and last timestamps — for segments with enough of their steps present.
-- grain: (series_key, segment)
-- invariants: only segments with n_steps ≥ $min_coverage · segment_length and at least $min_returns
--   returns appear (partial segments at the ends of a history are not segments). Every number is a
--   count, a min or a max: the same at any thread count and in any row order, so buildSegments runs
--   this model on all threads while the return moments are computed (docs/decisions/0031).
--   series_key is segment_steps' integer key of series_id.
WITH source AS (
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
    count(*) FILTER (WHERE ret > 0) AS n_positive,
    min(value) AS min_value, min("timestamp") AS first_timestamp, max("timestamp") AS last_timestamp
  FROM source
  GROUP BY series_key, segment
),
final AS (
  SELECT k.series_id, k.frequency, k.detail_category, k.segment_length, c.*
  FROM counted AS c JOIN keyed_series AS k USING (series_key)
  WHERE c.n_steps >= $min_coverage * k.segment_length AND c.n_returns >= $min_returns
)
SELECT * FROM final
