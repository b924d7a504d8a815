-- The first release of every period with its source, basis and publication lag in seconds
-- (available_at − period end; the timestamp is the period's end instant).
WITH first AS (
  SELECT series_id, "timestamp", available_at, available_at_basis
  FROM in_observations
  WHERE series_id NOT IN (SELECT series_id FROM in_series WHERE n_revisions > 0)
  UNION ALL
  SELECT series_id, "timestamp", first_at, first_basis FROM report_periods
)
SELECT s.source, f.available_at_basis AS basis,
       (epoch_us(f.available_at) - epoch_us(f."timestamp")) // 1000000 AS lag_s
FROM first AS f
JOIN in_series AS s USING (series_id)
