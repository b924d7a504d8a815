-- question_inputs: what each instance serves a system that reads files: for every (instance, series) of
-- input_specs, the series' rows with available_at <= the instance's t, every vintage (the revision history
-- it could have seen), from from_us on (a price series' last 260 bars; other series whole).
-- grain: (instance_id, series_id, "timestamp", available_at)
-- invariant: available_at <= t for every row (tested: no instance's inputs hold a row published after t).
-- $observation_files: exactly the observation files a verified manifest lists (never a glob).
WITH source AS (
  SELECT series_id, "timestamp", available_at, value
  FROM read_parquet($observation_files, hive_partitioning = false)
  SEMI JOIN (SELECT DISTINCT series_id FROM input_specs) USING (series_id)
),
renamed AS (
  SELECT i.instance_id, o.series_id, o."timestamp", o.available_at, o.value
  FROM input_specs AS i
  JOIN source AS o
    ON o.series_id = i.series_id
    AND o.available_at <= make_timestamptz(i.t_us)
    AND epoch_us(o."timestamp") >= i.from_us
),
final AS (
  SELECT instance_id, series_id, "timestamp", available_at, value FROM renamed
)
SELECT * FROM final ORDER BY instance_id, series_id, "timestamp", available_at
