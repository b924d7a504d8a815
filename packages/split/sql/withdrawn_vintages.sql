-- withdrawn_vintages: every vintage of each (evaluation-target series, timestamp) that holds a withdrawal
-- (value NULL, docs/decisions/0007), over the whole history. eval_observations keeps only the steps the
-- inputs and targets can read; the withdrawals table and the input windows' upper bound on withdrawn steps
-- read every withdrawal, however old its timestamp, from here.
-- grain: (series_key, "timestamp", available_at) — series_key from series_keys.sql
-- invariants: each (series_key, "timestamp") here has at least one row with value NULL, and all its rows are
--   here. Only series the parent built with revisions are read: a withdrawal counts as a revision, so series
--   with n_revisions = 0 have none (the parent's series.parquet is hash-verified).
WITH source AS (
  SELECT k.series_key, o."timestamp", o.available_at, o.value
  FROM split_revised_observations AS o
  JOIN series_keys AS k USING (series_id)
  WHERE k.eval_target AND k.n_revisions > 0
),
withdrawn_keys AS (
  SELECT DISTINCT series_key, "timestamp" FROM source WHERE value IS NULL
),
final AS (
  SELECT s.series_key, s."timestamp", s.available_at, s.value
  FROM source AS s
  SEMI JOIN withdrawn_keys AS w USING (series_key, "timestamp")
)
SELECT * FROM final
