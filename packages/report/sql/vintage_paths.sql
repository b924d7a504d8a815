-- One series, per timestamp: its first release and latest value, the number of vintages and when the
-- first and last of them were published (epoch milliseconds, for the chart's time axis).
-- grain: t (the timestamp; one series)
SELECT epoch_ms("timestamp")::DOUBLE AS t,
       count(*)::INTEGER AS vintages,
       arg_min(value, available_at) AS first_value,
       arg_max_null(value, available_at) AS latest_value,
       epoch_ms(min(available_at))::DOUBLE AS first_at,
       epoch_ms(max(available_at))::DOUBLE AS latest_at
FROM in_observations
WHERE series_id = $series
GROUP BY "timestamp"
ORDER BY "timestamp"
