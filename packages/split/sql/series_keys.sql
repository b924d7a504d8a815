-- series_keys: a small integer per series in series_id order, with the series attributes the split reads.
-- The split's sorts, windows and joins run on series_key: comparing integers instead of series_id strings
-- is several times cheaper at FinVerse scale (SPEC §12), and ordering by series_key is ordering by series_id,
-- so the output tables get series_id back by one join with this small table and are written in the same order.
-- grain: series_id
-- invariants: series_key = 1…n, unique, increasing with series_id; horizon_steps and lookback_steps are
--   split_horizons' for the series' frequency (it holds every frequency).
-- The horizons sit here, once per series, so the per-row models (series_grid and what reads it) join on the
-- integer key and carry no frequency text through their windows and sorts.
WITH source AS (
  SELECT series_id, frequency, eval_target, n_revisions, entity_id FROM split_series
),
final AS (
  SELECT s.series_id, CAST(row_number() OVER (ORDER BY s.series_id) AS INTEGER) AS series_key, s.frequency,
    s.eval_target, s.n_revisions, s.entity_id, h.horizon_steps, h.lookback_steps
  FROM source AS s
  LEFT JOIN split_horizons AS h USING (frequency)
)
SELECT * FROM final
