-- series_stats: per series, its history statistics and the facts eval_target is decided on (series.sql).
-- grain: series_id
-- invariants: n_obs and n_before count first vintages (one per timestamp); n_from_eval_start counts every
--   timestamp at or after $eval_start that ever had a row (a withdrawn one too): the split's grid
--   (packages/split/sql/series_grid.sql) numbers the same timestamps, and an origin needs itself plus
--   prediction_length target steps on it.
WITH source AS (
  SELECT * FROM observations
),
-- Grouped on the integer series_rank (1:1 with series_id): hashing 171M strings at FinVerse scale costs
-- several times more than hashing integers.
stats AS (
  SELECT
    any_value(series_id) AS series_id,
    min("timestamp") AS first_timestamp,
    max("timestamp") AS last_timestamp,
    count(*) FILTER (WHERE is_first_vintage AND value IS NOT NULL) AS n_obs,
    -- every vintage after a key's first: value revisions, withdrawals (value NULL) and restorations alike,
    -- so n_revisions = 0 still means "one row per timestamp" to readers that skip the as-of step.
    count(*) FILTER (WHERE NOT is_first_vintage) AS n_revisions,
    count(*) FILTER (WHERE is_first_vintage AND available_at < $eval_start::TIMESTAMPTZ) AS n_before,
    count(*) FILTER (WHERE is_first_vintage AND "timestamp" >= $eval_start::TIMESTAMPTZ) AS n_from_eval_start
  FROM source
  GROUP BY series_rank
),
final AS (
  SELECT * FROM stats
)
SELECT * FROM final
