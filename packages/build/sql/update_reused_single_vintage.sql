-- update_reused_single_vintage: stg_single_vintage's rows for the series OLD's rows are staged into, as
-- StageSink would have written them had it staged those rows first: a carried-over series without
-- revisions has one row per timestamp, all before the update's staged rows of it (its cut), so it stays a
-- single-vintage series with the rows added when its staged rows were one (or it had none).
-- Reads update_reused_rows, update_reused_series, stg_keys, stg_single_vintage, update_staged_series.
-- grain: series_key
-- invariants: only series OLD had without revisions; rows = OLD's rows before the cut + the staged ones.
WITH old_counts AS (
  SELECT series_key, count(*) AS n FROM update_reused_rows GROUP BY series_key
),
unrevised AS (
  SELECT k.key AS series_key, s.series_id IS NOT NULL AS staged
  FROM update_reused_series AS r
  JOIN stg_keys AS k ON k.kind = 'series' AND k.text = r.series_id
  LEFT JOIN update_staged_series AS s USING (series_id)
  WHERE r.n_revisions = 0
),
final AS (
  SELECT c.series_key, c.n + coalesce(v.rows, 0) AS rows
  FROM old_counts AS c
  JOIN unrevised AS u USING (series_key)
  LEFT JOIN stg_single_vintage AS v USING (series_key)
  WHERE NOT u.staged OR v.series_key IS NOT NULL
)
SELECT * FROM final
