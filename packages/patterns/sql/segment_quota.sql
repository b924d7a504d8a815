-- segment_quota: the quota-mode label of SPEC §7 (FinTSB exact), within each cross-section
-- (detail_category, frequency, segment) of segment_stats, of the segments whose entity was a member when the
-- cross-section formed (segment_members.sql); the others are in no cross-section and have no row here.
-- grain: (series_id, segment)
-- invariants: with N segments in a cross-section and q = ⌊$quota · N⌋: at most q are 'extreme' (segments
--   with a 3σ run, most severe first); of the rest, ranked by positive-return count (ties by series_id),
--   the top q are 'uptrend', the bottom q 'downtrend' and the middle q 'volatile'; the others have a NULL
--   quota_label. Cross-sections with fewer than ⌈1/$quota⌉ segments label nothing (q = 0).
WITH source AS (
  SELECT s.series_id, s.segment, s.frequency, s.detail_category, s.n_positive, s.is_extreme, s.extreme_severity
  FROM segment_stats AS s
  JOIN segment_members AS m USING (series_id, segment)
  WHERE m.member
),
sized AS (
  SELECT *, count(*) OVER cs AS cross_section_size, CAST(floor($quota * count(*) OVER cs) AS BIGINT) AS q
  FROM source
  WINDOW cs AS (PARTITION BY detail_category, frequency, segment)
),
extremes AS (
  SELECT *,
    is_extreme AND row_number() OVER (
      PARTITION BY detail_category, frequency, segment, is_extreme ORDER BY extreme_severity DESC, series_id
    ) <= q AS quota_extreme
  FROM sized
),
renamed AS (
  SELECT *,
    row_number() OVER rest AS positive_rank,
    count(*) OVER (PARTITION BY detail_category, frequency, segment, quota_extreme) AS rest_size
  FROM extremes
  WINDOW rest AS (PARTITION BY detail_category, frequency, segment, quota_extreme ORDER BY n_positive DESC, series_id)
),
final AS (
  SELECT
    series_id, segment, cross_section_size,
    CASE
      WHEN quota_extreme THEN 'extreme'
      WHEN positive_rank <= q THEN 'uptrend'
      WHEN positive_rank > rest_size - q THEN 'downtrend'
      WHEN positive_rank > (rest_size - q) // 2 AND positive_rank <= (rest_size - q) // 2 + q THEN 'volatile'
    END AS quota_label
  FROM renamed
)
SELECT * FROM final
