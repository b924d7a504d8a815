-- Evaluation origins per month (New York day), frequency and window, with those whose targets are pending.
-- grain: (month, frequency, "window")
SELECT epoch_ms(date_trunc('month', make_timestamp(epoch_us(origin)) - INTERVAL 12 HOUR))::DOUBLE AS month,
       frequency, coalesce("window", 'none') AS "window",
       count(*)::INTEGER AS origins,
       (count(*) FILTER (WHERE target_known_at IS NULL))::INTEGER AS pending
FROM in_origins
GROUP BY ALL
ORDER BY month, frequency, "window"
