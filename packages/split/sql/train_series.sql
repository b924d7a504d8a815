-- train_series: the series table restricted to series with training data, its history statistics recomputed
-- from what was public before the train cutoff (the parent's statistics describe the whole build, future included).
-- grain: series_id
-- invariants: first/last_timestamp and n_obs describe train_observations; n_revisions counts vintages public
--   before the cutoff beyond the first of each timestamp (withdrawals, value NULL, included, as in the build).
WITH source AS (
  SELECT * FROM split_series
),
known AS (
  SELECT series_id, count(*) AS n_rows, count(DISTINCT "timestamp") AS n_timestamps
  FROM split_observations
  WHERE available_at < $train_cutoff::TIMESTAMPTZ
  GROUP BY series_id
),
stats AS (
  SELECT series_id, min("timestamp") AS first_timestamp, max("timestamp") AS last_timestamp, count(*) AS n_obs
  FROM train_observations
  GROUP BY series_id
),
renamed AS (
  SELECT s.* REPLACE (
    t.first_timestamp AS first_timestamp,
    t.last_timestamp AS last_timestamp,
    t.n_obs AS n_obs,
    k.n_rows - k.n_timestamps AS n_revisions
  )
  FROM source AS s
  JOIN stats AS t USING (series_id)
  JOIN known AS k USING (series_id)
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
