-- baseline_served: the history a split serves, as the baselines' HistoryStore holds it — the training
-- snapshot and the inputs (each vintage once: per-origin inputs repeat them) and the withdrawals (value
-- NULL, docs/decisions/0007-withdrawal-rows.md: the as-of view at an origin after one leaves the timestamp
-- out), of the series in baseline_series. Instants as epoch microseconds.
-- Reads the views split_train, served_inputs and split_withdrawals, and baseline_series.
-- grain: (series_id, ts, av, value) — the DISTINCT rows; ordered by series_no so a block reads a range.
WITH source AS (
  SELECT series_id, "timestamp", available_at, value FROM split_train
  UNION ALL
  SELECT series_id, "timestamp", available_at, value FROM served_inputs
  UNION ALL
  SELECT series_id, "timestamp", available_at, value FROM split_withdrawals
),
renamed AS (
  SELECT DISTINCT series_id, epoch_us("timestamp") AS ts, epoch_us(available_at) AS av, value FROM source
),
final AS (
  SELECT s.series_no, r.series_id, r.ts, r.av, r.value
  FROM renamed AS r
  JOIN baseline_series AS s USING (series_id)
)
SELECT * FROM final ORDER BY series_no, ts, av
