-- question_points: per period of every question series, its first release and its latest value, both as
-- known at the run date (rows with available_at <= $run_date only: a question generated at r cannot see
-- what was published after r, so a T3 instance stays open even when the universe holds its answer).
-- first_value/first_at: the earliest non-NULL row (the first release; a withdrawal is not a release);
-- latest_value/latest_at: the last row (NULL when the latest row withdrew the value, docs/decisions/0007).
-- Instants are epoch microseconds (DOUBLE, exact to 2^53 µs) for streamNumbers.
-- grain: (series_id, "timestamp")
WITH source AS (
  SELECT o.series_id, o."timestamp", o.available_at, o.value
  FROM read_parquet($observation_files, hive_partitioning = false) AS o
  SEMI JOIN question_series AS s USING (series_id)
  WHERE o.available_at <= $run_date::TIMESTAMPTZ
),
renamed AS (
  SELECT
    series_id, "timestamp",
    arg_min(value, available_at) FILTER (WHERE value IS NOT NULL) AS first_value,
    min(available_at) FILTER (WHERE value IS NOT NULL) AS first_at,
    arg_max_null(value, available_at) AS latest_value,
    max(available_at) AS latest_at
  FROM source
  GROUP BY series_id, "timestamp"
),
final AS (
  SELECT
    series_id, epoch_us("timestamp")::DOUBLE AS ts, first_value, epoch_us(first_at)::DOUBLE AS first_at,
    latest_value, epoch_us(latest_at)::DOUBLE AS latest_at
  FROM renamed
  WHERE first_at IS NOT NULL
)
SELECT * FROM final
