-- withdrawals: the withdrawal rows (value NULL, docs/decisions/0007) of each evaluation series from the train
-- cutoff to its last origin. The training snapshot and the inputs never carry a NULL. Without these rows, a
-- consumer that rebuilds the as-of view at an origin from the served rows (asof baselines' HistoryStore,
-- the scorer's whole-history view) would still serve a value that the split's own inputs already leave out.
-- Withdrawals before the cutoff are already applied to the snapshot: the value is absent. Withdrawals of any
-- timestamp come from withdrawn_vintages.sql (eval_observations starts at the steps windows can reach).
-- grain: (series_id, "timestamp", available_at)
-- invariants: $train_cutoff <= available_at <= the series' last origin.
WITH source AS (
  SELECT series_key, max(origin) AS last_origin FROM origins GROUP BY series_key
),
renamed AS (
  SELECT o.series_key, o."timestamp", o.available_at
  FROM withdrawn_vintages AS o
  JOIN source AS s USING (series_key)
  WHERE o.value IS NULL AND o.available_at >= $train_cutoff::TIMESTAMPTZ AND o.available_at <= s.last_origin
),
-- series_id back from series_keys (the split works on the integer key; see series_keys.sql).
final AS (
  SELECT k.series_id, v.* FROM renamed AS v JOIN series_keys AS k USING (series_key)
)
SELECT * FROM final
