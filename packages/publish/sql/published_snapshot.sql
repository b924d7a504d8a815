-- published_snapshot: the `snapshot` config of a published split, in fev's one-row-per-series layout
-- (id, timestamp list, target list): each series' history as it was known at the split's training cutoff.
-- The split's train/observations.parquet holds every vintage public by the cutoff; per period the last
-- one published by then is the value known at the cutoff (the as-of view, docs/glossary.md); a period whose
-- last vintage is a withdrawal (value NULL, docs/decisions/0007) has no value then and is left out.
-- grain: id
WITH source AS (
  SELECT series_id, frequency, "timestamp", available_at, value FROM publish_observations_source
),
renamed AS (
  SELECT series_id AS id, frequency, "timestamp", available_at, value FROM source
),
known AS (
  SELECT id, frequency, "timestamp", arg_max_null(value, available_at) AS value
  FROM renamed
  GROUP BY id, frequency, "timestamp"
),
present AS (
  SELECT * FROM known WHERE value IS NOT NULL
),
final AS (
  SELECT
    id,
    any_value(frequency) AS frequency,
    list("timestamp" ORDER BY "timestamp") AS "timestamp",
    list(value ORDER BY "timestamp") AS target
  FROM present
  GROUP BY id
)
SELECT * FROM final
ORDER BY id
