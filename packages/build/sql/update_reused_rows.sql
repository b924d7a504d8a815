-- update_reused_rows: OLD's rows of carried-over series (before each series' cut) as staged rows, to be
-- appended into stg_observations (and their period_start into stg_observation_periods): the observation
-- models then give them the flags, ranks and strings a build would. stage_seq is negative (staged before
-- everything the update staged) and unique within a series (a series is in one file of OLD's).
-- Reads $old_files, update_reused_series, reuse_cuts, stg_keys (with update_reused_keys added).
-- grain: (series_key, ts_us, available_at_us)
-- invariants: OLD's grain, so one row per key and instant.
WITH source AS (
  SELECT series_id, epoch_us("timestamp") AS ts_us, epoch_us(period_start) AS period_start_us,
    epoch_us(available_at) AS available_at_us, value, available_at_basis, source_ref, file_row_number
  FROM read_parquet($old_files, file_row_number = true)
),
reused AS (
  SELECT r.series_id, k.key AS series_key, c.cut_us
  FROM update_reused_series AS r
  JOIN stg_keys AS k ON k.kind = 'series' AND k.text = r.series_id
  LEFT JOIN reuse_cuts AS c USING (series_id)
),
final AS (
  SELECT u.series_key, CAST(o.ts_us AS DOUBLE) AS ts_us, CAST(o.available_at_us AS DOUBLE) AS available_at_us,
    o.value, b.key AS basis_key, f.key AS ref_key, CAST(-1 - o.file_row_number AS DOUBLE) AS stage_seq,
    CAST(o.period_start_us AS DOUBLE) AS period_start_us
  FROM source AS o
  JOIN reused AS u USING (series_id)
  JOIN stg_keys AS b ON b.kind = 'basis' AND b.text = o.available_at_basis
  JOIN stg_keys AS f ON f.kind = 'ref' AND f.text = o.source_ref
  WHERE u.cut_us IS NULL OR o.ts_us < u.cut_us
)
SELECT * FROM final
