-- series_grid: the observation grid of every evaluation-target series — each timestamp the build holds
-- for it (in any vintage), numbered in time order. Origins and target steps are counted on this grid.
-- grain: (series_key, "timestamp") — series_key from series_keys.sql
-- invariants: step_index runs 1..n without gaps per series; first_available_at is the first release;
--   n_vintages counts the rows (releases) of the timestamp.
-- Revised series are read from the files of their frequencies only (split_revised_observations): the two
-- branches scan their own files instead of sharing a CTE that DuckDB would buffer whole to read twice.
WITH source AS (
  SELECT k.series_key, o."timestamp", o.available_at
  FROM split_observations AS o
  JOIN series_keys AS k USING (series_id)
  WHERE k.eval_target AND k.n_revisions = 0
),
revised_source AS (
  SELECT k.series_key, o."timestamp", o.available_at
  FROM split_revised_observations AS o
  JOIN series_keys AS k USING (series_id)
  WHERE k.eval_target AND k.n_revisions > 0
),
-- Series the parent built without revisions (the hash-verified series.parquet says so) hold one row per
-- timestamp: only revised series pay for the per-timestamp aggregate.
renamed AS (
  SELECT series_key, "timestamp", available_at AS first_available_at, CAST(1 AS BIGINT) AS n_vintages
  FROM source
  UNION ALL
  SELECT series_key, "timestamp", min(available_at) AS first_available_at, count(*) AS n_vintages
  FROM revised_source
  GROUP BY series_key, "timestamp"
),
final AS (
  SELECT
    series_key, "timestamp", first_available_at, n_vintages,
    row_number() OVER (PARTITION BY series_key ORDER BY "timestamp")::INTEGER AS step_index
  FROM renamed
)
SELECT * FROM final
