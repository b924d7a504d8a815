-- FinTSB Table 1 of an export: per pattern, mean ADF statistic, lag-1 autocorrelation and forecastability.
-- grain: pattern
SELECT pattern, datasets::INTEGER AS datasets, series::INTEGER AS series, adf_stat, acf1, forecastability, split
FROM in_fintsb_statistics
ORDER BY pattern
