-- published_series: the `series` config of a published dataset: one row per series with its taxonomy unit
-- and history statistics, as the universe (or the split's train/series.parquet) has them.
-- grain: series_id
WITH source AS (
  SELECT * FROM publish_series_source
),
renamed AS (
  SELECT * FROM source
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
ORDER BY series_id
