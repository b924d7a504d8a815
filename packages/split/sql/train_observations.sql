-- train_observations: the training snapshot — the as-of view strictly before the train cutoff
-- (eval_start − embargo), for every series. Only what was public before the evaluation began: a December
-- value first published in January is absent, and so is a later revision of an old value (the snapshot keeps
-- the vintage that was current at the cutoff). A timestamp whose current vintage at the cutoff is a
-- withdrawal (value NULL, docs/decisions/0007) is absent: its value was withdrawn before the cutoff.
-- Series whose parent series row has n_revisions = 0 (bars: most rows) hold one row per timestamp already, so
-- only revised series pay for the per-timestamp de-duplication (the parent's series.parquet is hash-verified).
-- grain: (series_id, "timestamp"); series_key (series_keys.sql) carries the sort and window key.
-- invariants: available_at < $train_cutoff on every row; value never NULL (a withdrawal is a revision, so
--   series with n_revisions = 0 have none).
-- The revised series are read from split_revised_observations (the files of their frequencies only): the two
-- branches then scan their own files and share no CTE, which DuckDB would buffer whole (every row before the
-- cutoff, strings included) to read it twice.
WITH source AS (
  SELECT o.*, k.series_key
  FROM split_observations AS o
  JOIN series_keys AS k USING (series_id)
  WHERE o.available_at < $train_cutoff::TIMESTAMPTZ AND k.n_revisions = 0
),
revised_source AS (
  SELECT o.*, k.series_key
  FROM split_revised_observations AS o
  JOIN series_keys AS k USING (series_id)
  WHERE o.available_at < $train_cutoff::TIMESTAMPTZ AND k.n_revisions > 0
),
renamed AS (
  SELECT
    series_id, frequency, "timestamp", period_start, available_at, value, available_at_basis, source_ref,
    series_key
  FROM source
),
revised AS (
  SELECT
    series_id, frequency, "timestamp", period_start, available_at, value, available_at_basis, source_ref,
    series_key
  FROM revised_source
  QUALIFY row_number() OVER (PARTITION BY series_key, "timestamp" ORDER BY available_at DESC) = 1
),
final AS (
  SELECT * FROM renamed
  UNION ALL
  SELECT * FROM revised WHERE value IS NOT NULL
)
SELECT * FROM final
