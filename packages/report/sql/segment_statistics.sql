-- ADF statistic, lag-1 autocorrelation and forecastability of the segments per category and frequency:
-- count and the 5/25/50/75/95 % quantiles (finite values only).
-- grain: (category, frequency, statistic)
WITH long AS (
  UNPIVOT (
    SELECT s.category, g.frequency, g.adf_stat, g.acf1, g.forecastability
    FROM in_segments AS g
    JOIN in_series AS s USING (series_id)
  ) ON adf_stat, acf1, forecastability INTO NAME statistic VALUE v
)
SELECT category, frequency, statistic, count(*)::INTEGER AS segments,
       (quantile_cont(v, [0.05, 0.25, 0.5, 0.75, 0.95]))::DOUBLE[] AS q
FROM long
WHERE isfinite(v)
GROUP BY ALL
ORDER BY category, frequency, statistic
