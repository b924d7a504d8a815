-- update_observations: the universe's observations table as the observations model would build it over
-- the union of inputs, from OLD's rows of reused series (before each series' cut) and the model's output
-- over what the update staged (obs_fresh: re-read sources and instruments, appended downloads with OLD's
-- rows from their cut on). Same columns and values as models/observations.sql of @asof/transform.
-- Reads $old_files (OLD's observation files), update_reused_series, reuse_cuts, obs_fresh, stg_series.
-- grain: (series_id, timestamp, available_at)
-- invariants: OLD's rows passed the invariants (one row per grain, no repeated value), so a reused row is a
--   key's first vintage exactly when it is its earliest (series without revisions: every row); it never
--   shares a grain. series_rank orders series by series_id, as the model's does (a carried-over series
--   without rows takes a rank too: the numbers are only sorted and grouped on, never written).
WITH fresh_series AS (
  SELECT DISTINCT series_id FROM obs_fresh
),
ranked AS (
  -- One row per series with rows (OLD's carried-over ones and those staged): rank, frequency, what to keep
  -- of OLD, so the per-row work below is one join on this small table.
  SELECT k.series_id, CAST(row_number() OVER (ORDER BY k.series_id) AS INTEGER) AS series_rank,
    s.frequency, r.n_revisions, c.cut_us, r.series_id IS NOT NULL AS reused
  FROM (SELECT series_id FROM fresh_series UNION SELECT series_id FROM update_reused_series) AS k
  LEFT JOIN update_reused_series AS r USING (series_id)
  LEFT JOIN reuse_cuts AS c USING (series_id)
  LEFT JOIN stg_series AS s USING (series_id)
),
old_rows AS (
  SELECT o.series_id, o."timestamp", o.period_start, o.available_at, o.value, o.available_at_basis, o.source_ref,
    k.n_revisions, k.frequency, k.series_rank
  FROM read_parquet($old_files) AS o
  JOIN ranked AS k USING (series_id)
  WHERE k.reused AND (k.cut_us IS NULL OR epoch_us(o."timestamp") < k.cut_us)
),
old_flagged AS (
  SELECT * EXCLUDE (n_revisions), true AS is_first_vintage, false AS shares_grain FROM old_rows
  WHERE n_revisions = 0
  UNION ALL
  SELECT * EXCLUDE (n_revisions),
    available_at = min(available_at) OVER (PARTITION BY series_id, "timestamp") AS is_first_vintage,
    false AS shares_grain
  FROM old_rows WHERE n_revisions > 0
),
fresh_rows AS (
  SELECT f.series_id, f."timestamp", f.period_start, f.available_at, f.value, f.available_at_basis, f.source_ref,
    k.frequency, k.series_rank, f.is_first_vintage, f.shares_grain
  FROM obs_fresh AS f
  JOIN ranked AS k USING (series_id)
),
final AS (
  SELECT * FROM fresh_rows
  UNION ALL
  SELECT * FROM old_flagged
)
SELECT * FROM final
