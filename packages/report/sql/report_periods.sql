-- Periods (series_id, timestamp) of the series that have later vintages (n_revisions > 0): the number of
-- vintages, the first release (instant, value) and the latest value (NULL when the latest row withdrew it).
-- Series without revisions have one row per period, so the other models read their rows directly.
-- grain: (series_id, "timestamp")
SELECT o.series_id, o."timestamp",
       count(*)::INTEGER AS vintages,
       min(o.available_at) AS first_at,
       arg_min(o.available_at_basis, o.available_at) AS first_basis,
       arg_min(o.value, o.available_at) AS first_value,
       arg_max_null(o.value, o.available_at) AS latest_value,
       (count(*) FILTER (WHERE o.value IS NULL))::INTEGER AS withdrawals
FROM in_observations AS o
WHERE o.series_id IN (SELECT series_id FROM in_series WHERE n_revisions > 0)
GROUP BY o.series_id, o."timestamp"
