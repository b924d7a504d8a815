-- inputs: what a forecaster may see at each origin — the as-of view at the origin (per timestamp, the row
-- with the greatest available_at <= origin), its timestamps <= origin, the last lookback_steps of them:
-- exactly the timestamps in [lookback_start, origin] of input_windows. The window's grid steps are
-- enumerated and equi-joined (a range join would compare every origin with every row of its series);
-- series with a single release per timestamp need no per-timestamp de-duplication. A timestamp whose current
-- row at the origin is a withdrawal (value NULL, docs/decisions/0007) is not served; input_windows does
-- not count it as a public step.
-- step_index is the row's grid step (series_grid.sql): what the baselines count seasons and the lag on,
-- since a step not yet released at o is absent from the rows.
-- grain: (series_id, origin, "timestamp")
-- invariants: available_at <= origin and "timestamp" <= origin on every row; n_input_steps rows per origin;
--   value never NULL; step_index <= the origin's origin_index.
WITH source AS (
  SELECT w.series_key, w.origin, c.origin_index, g.step_index AS start_index
  FROM input_windows AS w
  JOIN origin_candidates AS c USING (series_key, origin)
  JOIN series_grid AS g ON g.series_key = w.series_key AND g."timestamp" = w.lookback_start
),
revised AS (
  SELECT series_key FROM series_grid GROUP BY series_key HAVING max(n_vintages) > 1
),
steps AS (
  SELECT
    s.series_key, s.origin, unnest(generate_series(s.start_index, s.origin_index)) AS step_index,
    r.series_key IS NOT NULL AS is_revised
  FROM source AS s
  LEFT JOIN revised AS r USING (series_key)
),
renamed AS (
  SELECT
    s.series_key, s.origin, s.is_revised,
    o."timestamp", o.period_start, o.available_at, o.value, o.available_at_basis, o.source_ref,
    s.step_index::INTEGER AS step_index
  FROM steps AS s
  JOIN eval_observations AS o ON o.series_key = s.series_key AND o.step_index = s.step_index
  WHERE o.available_at <= s.origin
),
deduplicated AS (
  SELECT * FROM renamed
  WHERE is_revised
  QUALIFY row_number() OVER (PARTITION BY series_key, origin, "timestamp" ORDER BY available_at DESC) = 1
),
served AS (
  SELECT * EXCLUDE (is_revised) FROM renamed WHERE NOT is_revised
  UNION ALL
  SELECT * EXCLUDE (is_revised) FROM deduplicated WHERE value IS NOT NULL
),
-- series_id back from series_keys (the split works on the integer key; see series_keys.sql).
final AS (
  SELECT k.series_id, v.* FROM served AS v JOIN series_keys AS k USING (series_key)
)
SELECT * FROM final
