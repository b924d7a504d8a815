-- The static series whose values a later download of the vendor's file changed (Stooq/Yahoo histories,
-- fredgraph CSVs carry no revision dates, so a changed value is a silent restatement, kept as a row dated
-- by the download that shows it; the build warns VENDOR_RESTATED): restated values, the downloads that
-- restated them, the periods they span and the median / largest relative move. Most restated first.
-- grain: series_id
WITH restated AS (
  SELECT o.series_id, o."timestamp", o.available_at, o.value,
         lag(o.value) OVER (PARTITION BY o.series_id, o."timestamp" ORDER BY o.available_at) AS old_value
  FROM in_observations AS o
  WHERE o.series_id IN (SELECT series_id FROM in_series WHERE universe_kind = 'static' AND n_revisions > 0)
)
SELECT r.series_id, s.source, s.title, s.frequency,
       count(*)::INTEGER AS restated_values,
       count(DISTINCT r.available_at)::INTEGER AS downloads,
       epoch_ms(min(r."timestamp"))::DOUBLE AS first_period,
       epoch_ms(max(r."timestamp"))::DOUBLE AS last_period,
       median(abs(r.value - r.old_value) / abs(nullif(r.old_value, 0)))::DOUBLE AS median_move,
       max(abs(r.value - r.old_value) / abs(nullif(r.old_value, 0)))::DOUBLE AS max_move
FROM restated AS r
JOIN in_series AS s USING (series_id)
WHERE r.old_value IS NOT NULL AND r.value IS NOT NULL
GROUP BY r.series_id, s.source, s.title, s.frequency
ORDER BY restated_values DESC, r.series_id
