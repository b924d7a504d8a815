-- Revised periods per source by the size of the move from first release to latest value,
-- |latest − first| / |first| (periods whose latest row is a withdrawal or whose first value is 0 are left out).
-- grain: (source, bin)
WITH moves AS (
  SELECT s.source, abs(p.latest_value - p.first_value) / abs(p.first_value) AS move
  FROM report_periods AS p
  JOIN in_series AS s USING (series_id)
  WHERE p.vintages > 1 AND p.latest_value IS NOT NULL AND p.first_value IS NOT NULL AND p.first_value <> 0
)
SELECT source,
       CASE
         WHEN move = 0 THEN 0
         WHEN move < 0.001 THEN 1
         WHEN move < 0.01 THEN 2
         WHEN move < 0.05 THEN 3
         WHEN move < 0.2 THEN 4
         ELSE 5
       END::INTEGER AS bin,
       count(*)::DOUBLE AS periods
FROM moves
GROUP BY ALL
ORDER BY source, bin
