-- runner_served: every vintage the split serves to an evaluation series — its inputs (each vintage once:
-- per-origin inputs repeat them; compact input_rows hold each once) — and its withdrawals (value NULL,
-- docs/decisions/0007-withdrawal-rows.md: from its available_at on, the timestamp is not public). A
-- HistoryStore over these rows gives, at each origin, exactly the split's inputs (historyAt: per timestamp
-- the vintage with the greatest available_at <= origin, the last lookback timestamps).
-- Reads the views split_input_rows, split_withdrawals and the table runner_pairs.
-- grain: (series_id, ts, av, value)
WITH inputs AS (
  SELECT DISTINCT series_id, "timestamp", available_at, value, step_index FROM split_input_rows
),
withdrawn AS (
  SELECT series_id, "timestamp", available_at, NULL::DOUBLE AS value, NULL::INTEGER AS step_index
  FROM split_withdrawals
),
source AS (
  SELECT * FROM inputs
  UNION ALL
  SELECT * FROM withdrawn
),
final AS (
  SELECT
    series_id, epoch_us("timestamp") AS ts, epoch_us(available_at) AS av, value,
    step_index::INTEGER AS step_index
  FROM source
  WHERE series_id IN (SELECT DISTINCT series_id FROM runner_pairs)
)
SELECT * FROM final ORDER BY series_id, ts, av
