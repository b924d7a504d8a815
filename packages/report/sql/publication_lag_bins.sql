-- First releases per source and basis in publication-lag bins (days), with each bin's share of the group.
-- grain: (source, basis, bin)
WITH binned AS (
  SELECT source, basis,
         CASE
           WHEN lag_s < 0 THEN 0
           WHEN lag_s < 86400 THEN 1
           WHEN lag_s < 7 * 86400 THEN 2
           WHEN lag_s < 14 * 86400 THEN 3
           WHEN lag_s < 30 * 86400 THEN 4
           WHEN lag_s < 60 * 86400 THEN 5
           WHEN lag_s < 90 * 86400 THEN 6
           WHEN lag_s < 180 * 86400 THEN 7
           WHEN lag_s < 365 * 86400 THEN 8
           ELSE 9
         END AS bin
  FROM report_first_releases
)
SELECT source, basis, bin::INTEGER AS bin, count(*)::DOUBLE AS releases,
       (count(*) / sum(count(*)) OVER (PARTITION BY source, basis))::DOUBLE AS share
FROM binned
GROUP BY source, basis, bin
ORDER BY source, basis, bin
