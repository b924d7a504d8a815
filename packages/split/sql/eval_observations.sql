-- eval_observations: every observation row (all vintages) of the evaluation-target series, with the
-- grid step of its timestamp, so windows can be cut by step number with range joins.
-- grain: (series_id, "timestamp", available_at)
-- invariants: one row per source observation row; step_index from series_grid.
WITH source AS (
  SELECT * FROM split_observations
),
renamed AS (
  SELECT
    o.series_id, o."timestamp", o.period_start, o.available_at, o.value, o.available_at_basis, o.source_ref,
    g.step_index
  FROM source AS o
  JOIN series_grid AS g USING (series_id, "timestamp")
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
