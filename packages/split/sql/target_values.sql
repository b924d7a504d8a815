-- target_values: the value each grid step is scored against, from the chosen vintage, among the rows
-- public by the run date: 'first_release' = the row with the least available_at, 'latest' = the greatest.
-- grain: (series_key, step_index)
-- invariants: available_at <= the run date ('infinity' without a run date); a step with no row public by
--   then has no target (it is pending); value never NULL. A withdrawal (value NULL, docs/decisions/0007) is
--   never a label, and a step whose latest row public by the run date is a withdrawal has no target at all
--   (its value is withdrawn as of the run date: pending, like a step not yet released).
WITH source AS (
  SELECT series_key, step_index, "timestamp", available_at, value, n_vintages
  FROM eval_observations
  WHERE available_at <= $run_date::TIMESTAMPTZ
),
-- A step with one row ever (bars: nearly every row at scale) is its own first and latest vintage, and
-- cannot be a withdrawal (one needs an earlier value): it skips the two windows below.
single AS (
  SELECT series_key, step_index, "timestamp", value, available_at
  FROM source
  WHERE n_vintages = 1 AND value IS NOT NULL
),
flagged AS (
  SELECT *, arg_max(value IS NULL, available_at) OVER (PARTITION BY series_key, step_index) AS is_withdrawn
  FROM source
  WHERE n_vintages > 1
),
renamed AS (
  SELECT
    *,
    row_number() OVER (
      PARTITION BY series_key, step_index
      ORDER BY CASE WHEN $target_vintage = 'latest' THEN -epoch_us(available_at) ELSE epoch_us(available_at) END
    ) AS vintage_rank
  FROM flagged
  WHERE value IS NOT NULL AND NOT is_withdrawn
),
final AS (
  SELECT * FROM single
  UNION ALL
  SELECT series_key, step_index, "timestamp", value, available_at FROM renamed WHERE vintage_rank = 1
)
SELECT * FROM final
