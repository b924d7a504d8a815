-- unit_coverage: the FinVerse Table 4 view of a built universe, per taxonomy unit.
-- grain: (scope, category, detail_category, frequency)
-- invariants: points count distinct (series_id, timestamp) pairs that ever had a value (revisions and
--   withdrawals, value NULL, are not extra points);
--   eval_points are those of eval-target series at or after $eval_start.
-- $observation_files: exactly the observation files a verified manifest lists (never a glob).
WITH source AS (
  SELECT s.scope, s.category, s.detail_category, s.frequency, s.series_id, s.eval_target
  FROM read_parquet($series_file) AS s
),
points AS (
  SELECT series_id, "timestamp" FROM read_parquet($observation_files)
  WHERE value IS NOT NULL
  GROUP BY series_id, "timestamp"
),
renamed AS (
  SELECT
    s.scope, s.category, s.detail_category, s.frequency,
    count(DISTINCT s.series_id) AS series,
    count(p."timestamp") AS points,
    count(p."timestamp") FILTER (WHERE s.eval_target AND p."timestamp" >= $eval_start::TIMESTAMPTZ) AS eval_points,
    count(DISTINCT s.series_id) FILTER (WHERE s.eval_target) AS eval_series
  FROM source AS s
  LEFT JOIN points AS p USING (series_id)
  GROUP BY ALL
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final ORDER BY scope, category, detail_category, frequency
