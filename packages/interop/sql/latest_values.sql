-- latest_values: what every series of a universe said at $as_of (SPEC §1), the rule of
-- packages/transform/models/as_of_view.sql over all series at once: per (series_id, timestamp) the row with
-- the greatest available_at <= $as_of; a timestamp whose current row is a withdrawal (value NULL,
-- docs/decisions/0007) has no row. With $as_of = 'infinity' it is the latest view. Nixtla's and Qlib's
-- feature files are written from it.
-- grain: (series_id, "timestamp")
-- $observation_files: exactly the observation files a verified manifest lists (never a glob).
WITH source AS (
  SELECT * FROM read_parquet($observation_files, hive_partitioning = false)
),
renamed AS (
  SELECT series_id, "timestamp", available_at, value
  FROM source
  WHERE available_at <= $as_of::TIMESTAMPTZ
),
current_vintage AS (
  SELECT * FROM renamed
  QUALIFY row_number() OVER (PARTITION BY series_id, "timestamp" ORDER BY available_at DESC) = 1
),
final AS (
  SELECT series_id, "timestamp", epoch_us("timestamp") AS timestamp_us, available_at, value
  FROM current_vintage
  WHERE value IS NOT NULL
)
SELECT * FROM final ORDER BY series_id, "timestamp"
