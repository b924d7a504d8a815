-- targets: the values at o+1..o+H (grid steps after the origin) from the chosen vintage, kept apart from the
-- inputs so a model runner can be handed inputs only. Steps not public by the run date are absent (pending).
-- The H steps of each origin are enumerated (generate_series) and equi-joined, never range-joined.
-- grain: (series_id, origin, step)
-- invariants: 1 <= step <= horizon_steps; "timestamp" > origin; available_at <= the run date.
WITH source AS (
  SELECT series_key, origin, origin_index, unnest(generate_series(1, horizon_steps)) AS step FROM origins
),
renamed AS (
  SELECT s.series_key, s.origin, s.step::INTEGER AS step, t."timestamp", t.value, t.available_at
  FROM source AS s
  JOIN target_values AS t ON t.series_key = s.series_key AND t.step_index = s.origin_index + s.step
),
served AS (
  SELECT * FROM renamed
),
-- series_id back from series_keys (the split works on the integer key; see series_keys.sql).
final AS (
  SELECT k.series_id, v.* FROM served AS v JOIN series_keys AS k USING (series_key)
)
SELECT * FROM final
