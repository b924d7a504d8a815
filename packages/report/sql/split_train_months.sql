-- Training snapshot rows per month of their timestamp and category (New York day: see active_series.sql).
-- grain: (month, category)
SELECT epoch_ms(date_trunc('month', make_timestamp(epoch_us(o."timestamp")) - INTERVAL 12 HOUR))::DOUBLE AS month,
       s.category, count(*)::DOUBLE AS observations
FROM in_train_observations AS o
JOIN in_train_series AS s USING (series_id)
GROUP BY ALL
ORDER BY month, s.category
