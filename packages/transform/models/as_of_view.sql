-- as_of_view: what was known about one series at $as_of (SPEC §1): for each timestamp, the row with the
-- greatest available_at <= $as_of. With $as_of = 'infinity' it is the latest view. A timestamp whose current
-- row is a withdrawal (value NULL, docs/decisions/0007) has no row: its value was withdrawn by then.
-- grain: "timestamp"
-- invariants: no row has available_at > $as_of; value is never NULL.
-- $observation_files: exactly the observation files a verified manifest lists (never a glob).
WITH source AS (
  SELECT * FROM read_parquet($observation_files)
  WHERE series_id = $series_id
),
renamed AS (
  SELECT series_id, "timestamp", period_start, available_at, value, available_at_basis, source_ref
  FROM source
  WHERE available_at <= $as_of::TIMESTAMPTZ
),
current_vintage AS (
  SELECT * FROM renamed
  QUALIFY row_number() OVER (PARTITION BY "timestamp" ORDER BY available_at DESC) = 1
),
final AS (
  SELECT * FROM current_vintage WHERE value IS NOT NULL
)
SELECT * FROM final ORDER BY "timestamp"
