-- update_observations: the universe's observations table as the observations model would build it over
-- the union of inputs, from OLD's rows of reused series (before each series' cut) and the model's output
-- over what the update staged (obs_fresh: re-read sources and instruments, appended downloads with OLD's
-- rows from their cut on). Same columns and values as models/observations.sql of @asof/transform.
-- Reads $old_files (OLD's observation files), update_reused_series, reuse_cuts, obs_fresh, stg_series.
-- grain: (series_id, timestamp, available_at)
-- invariants: OLD's rows passed the invariants (one row per grain, no repeated value), so a reused row is a
--   key's first vintage exactly when it is its earliest (series without revisions: every row); it never
--   shares a grain. series_rank ranks every series with rows by series_id, as the model does.
WITH old_rows AS (
  SELECT o.series_id, o."timestamp", o.period_start, o.available_at, o.value, o.available_at_basis, o.source_ref,
    r.n_revisions
  FROM read_parquet($old_files) AS o
  JOIN update_reused_series AS r USING (series_id)
  LEFT JOIN reuse_cuts AS c USING (series_id)
  WHERE c.cut_us IS NULL OR epoch_us(o."timestamp") < c.cut_us
),
old_flagged AS (
  SELECT * EXCLUDE (n_revisions), true AS is_first_vintage FROM old_rows WHERE n_revisions = 0
  UNION ALL
  SELECT * EXCLUDE (n_revisions), available_at = min(available_at) OVER (PARTITION BY series_id, "timestamp") AS is_first_vintage
  FROM old_rows WHERE n_revisions > 0
),
all_rows AS (
  SELECT series_id, "timestamp", period_start, available_at, value, available_at_basis, source_ref,
    is_first_vintage, shares_grain
  FROM obs_fresh
  UNION ALL
  SELECT *, false AS shares_grain FROM old_flagged
),
ranked AS (
  SELECT series_id, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_rank
  FROM (SELECT DISTINCT series_id FROM all_rows)
),
final AS (
  SELECT a.series_id, a."timestamp", a.period_start, a.available_at, a.value, a.available_at_basis, a.source_ref,
    s.frequency, k.series_rank, a.is_first_vintage, a.shares_grain
  FROM all_rows AS a
  JOIN ranked AS k USING (series_id)
  LEFT JOIN stg_series AS s USING (series_id)
)
SELECT * FROM final
