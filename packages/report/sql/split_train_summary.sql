-- The training snapshot per category and frequency: series, rows, the last timestamp and the last
-- publication instant it holds (all strictly before the train cutoff).
-- grain: (category, frequency)
SELECT s.category, s.frequency, count(DISTINCT s.series_id)::INTEGER AS series,
       sum(coalesce(s.n_obs, 0))::DOUBLE AS observations,
       epoch_ms(max(s.last_timestamp))::DOUBLE AS last_timestamp,
       epoch_ms(max(a.last_available_at))::DOUBLE AS last_available_at
FROM in_train_series AS s
LEFT JOIN (
  SELECT series_id, max(available_at) AS last_available_at FROM in_train_observations GROUP BY series_id
) AS a USING (series_id)
GROUP BY s.category, s.frequency
ORDER BY s.category, s.frequency
