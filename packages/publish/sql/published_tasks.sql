-- published_tasks: the `tasks` config of a published dataset: the metric columns that apply to each
-- evaluation-target series, as the universe or split lists them.
-- grain: (series_id, aspect, metric, p, h)
WITH source AS (
  SELECT * FROM publish_tasks_source
),
renamed AS (
  SELECT * FROM source
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
ORDER BY series_id, aspect, metric, p, h
