-- eval_observations: every observation row (all vintages) of the evaluation-target series, with the
-- grid step of its timestamp, so windows can be cut by step number with range joins.
-- grain: (series_key, "timestamp", available_at) — series_key from series_keys.sql
-- invariants: one row per source observation row; step_index and n_vintages (rows of the timestamp)
--   from series_grid.
WITH source AS (
  SELECT k.series_key, o."timestamp", o.period_start, o.available_at, o.value, o.available_at_basis, o.source_ref
  FROM split_observations AS o
  JOIN series_keys AS k USING (series_id)
  WHERE k.eval_target
),
renamed AS (
  SELECT s.*, g.step_index, g.n_vintages
  FROM source AS s
  JOIN series_grid AS g USING (series_key, "timestamp")
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
