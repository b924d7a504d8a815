-- Coverage by scope → category → detail category → frequency: series, observation rows (revisions
-- included: n_obs periods + n_revisions later vintages), evaluation targets and tasks.
-- grain: (scope, category, detail_category, frequency)
SELECT s.scope, s.category, s.detail_category, s.frequency,
       count(*)::INTEGER AS series,
       sum(coalesce(s.n_obs, 0) + coalesce(s.n_revisions, 0))::DOUBLE AS observations,
       (count(*) FILTER (WHERE s.eval_target))::INTEGER AS eval_targets,
       coalesce(sum(t.tasks), 0)::INTEGER AS tasks
FROM in_series AS s
LEFT JOIN (SELECT series_id, count(*) AS tasks FROM in_tasks GROUP BY series_id) AS t USING (series_id)
GROUP BY s.scope, s.category, s.detail_category, s.frequency
ORDER BY s.scope, s.category, s.detail_category, s.frequency
