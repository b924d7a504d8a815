-- split_tasks: the parent universe's tasks (FinVerse metric columns per eval-target series) for the series
-- this split evaluates, so `asof score` needs nothing but the split manifest (issue 16).
-- grain: (series_id, aspect, metric, p, h)
-- invariants: only series that have at least one origin; rows as in the parent's tasks.parquet.
WITH source AS (
  SELECT * FROM parent_tasks
),
renamed AS (
  SELECT k.series_key, t.*
  FROM source AS t
  JOIN series_keys AS k USING (series_id)
  WHERE t.series_id IN (SELECT DISTINCT series_id FROM origins)
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
