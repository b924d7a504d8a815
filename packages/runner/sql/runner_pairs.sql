-- runner_pairs: the (series, origin) pairs a model is asked for, numbered in the order they are served —
-- chronologically by origin, then by series_id (a batch holds series of one origin). Instants as epoch
-- microseconds. fiscal: an annual series whose fiscal year does not end in December (its labels are FY2019).
-- Reads the views split_origins and split_train_series (the verified files).
-- grain: pair_no
-- invariants: pair_no is 1..n in (origin, series_id) order; one row per (series_id, origin) of the split.
WITH source AS (
  SELECT
    o.series_id, o.frequency, o.origin, o.origin_label, o.origin_index, o.lookback_steps, o.lookback_start,
    o.n_input_steps, o.horizon_steps
  FROM split_origins AS o
),
renamed AS (
  SELECT
    s.series_id, s.frequency,
    epoch_us(s.origin) AS origin_us,
    s.origin_label,
    s.origin_index::BIGINT AS origin_index,
    s.lookback_steps::INTEGER AS lookback_steps,
    epoch_us(s.lookback_start) AS lookback_start_us,
    coalesce(s.n_input_steps, 0)::INTEGER AS n_input_steps,
    s.horizon_steps::INTEGER AS horizon_steps,
    (s.frequency = 'A' AND coalesce(t.fiscal_year_end, '1231') <> '1231') AS fiscal
  FROM source AS s
  LEFT JOIN split_train_series AS t USING (series_id)
),
final AS (
  SELECT row_number() OVER (ORDER BY origin_us, series_id) AS pair_no, * FROM renamed
)
SELECT * FROM final ORDER BY pair_no
