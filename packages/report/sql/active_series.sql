-- Series active per month and category: a series counts from the month of its first timestamp to the
-- month of its last. Timestamps are instants and a New York period end (23:59:59.999 America/New_York)
-- falls on the next UTC day: 12 h back lands every US-zone timestamp in its own New York day.
-- grain: (month, category)
WITH bounds AS (
  SELECT category,
         date_trunc('month', make_timestamp(epoch_us(first_timestamp)) - INTERVAL 12 HOUR) AS first_month,
         date_trunc('month', make_timestamp(epoch_us(last_timestamp)) - INTERVAL 12 HOUR) AS last_month
  FROM in_series
  WHERE first_timestamp IS NOT NULL AND last_timestamp IS NOT NULL
),
months AS (
  SELECT unnest(generate_series(
    (SELECT min(first_month) FROM bounds), (SELECT max(last_month) FROM bounds), INTERVAL 1 MONTH)) AS month
)
SELECT epoch_ms(m.month)::DOUBLE AS month, b.category, count(*)::INTEGER AS series
FROM months AS m
JOIN bounds AS b ON m.month BETWEEN b.first_month AND b.last_month
GROUP BY m.month, b.category
ORDER BY m.month, b.category
