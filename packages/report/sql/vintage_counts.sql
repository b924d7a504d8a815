-- Periods per source by their number of vintages (1 = never revised).
-- grain: (source, vintages)
WITH counted AS (
  SELECT s.source, 1 AS vintages, sum(s.n_obs)::DOUBLE AS periods
  FROM in_series AS s
  WHERE coalesce(s.n_revisions, 0) = 0
  GROUP BY s.source
  UNION ALL
  SELECT s.source, p.vintages, count(*)::DOUBLE AS periods
  FROM report_periods AS p
  JOIN in_series AS s USING (series_id)
  GROUP BY s.source, p.vintages
)
SELECT source, vintages::INTEGER AS vintages, sum(periods)::DOUBLE AS periods
FROM counted
WHERE periods > 0
GROUP BY source, vintages
ORDER BY source, vintages
