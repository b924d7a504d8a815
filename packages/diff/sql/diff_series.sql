-- diff_series: which series two universes share, and which one of them alone has (asof diff).
-- Reads a_series / b_series (the series tables of A and B, filtered to the series asked for).
-- grain: series_id
-- invariants: status is 'new' (only in B), 'removed' (only in A) or 'common'; source, frequency and
--   universe_kind are B's (A's for a removed series); n_rows counts that universe's observation rows.
WITH a AS (
  SELECT series_id, source, frequency, universe_kind, fiscal_year_end, n_obs + n_revisions AS n_rows FROM a_series
),
b AS (
  SELECT series_id, source, frequency, universe_kind, fiscal_year_end, n_obs + n_revisions AS n_rows FROM b_series
),
final AS (
  SELECT
    coalesce(b.series_id, a.series_id) AS series_id,
    CASE WHEN a.series_id IS NULL THEN 'new' WHEN b.series_id IS NULL THEN 'removed' ELSE 'common' END AS status,
    coalesce(b.source, a.source) AS source,
    coalesce(b.frequency, a.frequency) AS frequency,
    coalesce(b.universe_kind, a.universe_kind) AS universe_kind,
    coalesce(b.fiscal_year_end, a.fiscal_year_end) AS fiscal_year_end,
    coalesce(a.n_rows, 0) AS a_rows,
    coalesce(b.n_rows, 0) AS b_rows
  FROM a FULL OUTER JOIN b USING (series_id)
)
SELECT * FROM final
