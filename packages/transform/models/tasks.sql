-- tasks: the metric columns that apply to each evaluation-target series (SPEC §3, §6; FinVerse §3.2).
-- grain: (series_id, aspect, metric, p, h)
-- invariants: only eval_target series; p/h steps are the registry's steps at the series' frequency
--   (MASE_ori has no p/h: it is scored over the whole prediction length).
WITH source AS (
  SELECT series_id, scope, category, detail_category, frequency FROM series WHERE eval_target
),
renamed AS (
  SELECT
    s.series_id, t.aspect, t.metric, t.p, t.h, t.p_steps, t.h_steps,
    s.scope, s.category, s.detail_category, s.frequency
  FROM source AS s
  JOIN registry_unit_tasks AS t
    ON t.scope = s.scope AND t.category = s.category AND t.detail_category = s.detail_category AND t.frequency = s.frequency
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
