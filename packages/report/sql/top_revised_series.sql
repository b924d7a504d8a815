-- The series whose first releases moved most: revised periods and the median / largest relative move
-- from first release to latest value.
-- grain: series_id
SELECT p.series_id, s.source, s.title, s.frequency,
       count(*)::INTEGER AS revised_periods,
       (sum(p.vintages - 1))::INTEGER AS revisions,
       median(abs(p.latest_value - p.first_value) / abs(p.first_value))::DOUBLE AS median_move,
       max(abs(p.latest_value - p.first_value) / abs(p.first_value))::DOUBLE AS max_move
FROM report_periods AS p
JOIN in_series AS s USING (series_id)
WHERE p.vintages > 1 AND p.latest_value IS NOT NULL AND p.first_value IS NOT NULL AND p.first_value <> 0
GROUP BY p.series_id, s.source, s.title, s.frequency
ORDER BY median_move DESC, p.series_id
LIMIT $limit
