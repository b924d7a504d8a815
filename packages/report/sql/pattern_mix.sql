-- Movement-pattern labels of the segments per category and frequency.
-- grain: (category, frequency, label)
SELECT s.category, g.frequency, coalesce(g.label, 'unlabelled') AS label, count(*)::INTEGER AS segments
FROM in_segments AS g
JOIN in_series AS s USING (series_id)
GROUP BY ALL
ORDER BY s.category, g.frequency, label
