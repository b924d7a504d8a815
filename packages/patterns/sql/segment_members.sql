-- segment_members: whether each labelled segment's entity was a member of the universe, as known then, when
-- its cross-section formed (docs/decisions/0021): quota labels rank, and FinTSB datasets draw from, members
-- only. A cross-section (detail_category, frequency, segment) forms at its first observed step (the earliest
-- first_timestamp of its segments); an entity removed later in the segment stays in it (no survivorship
-- filter), one added later is not in it. member_spans (@asof/transform) resolves the membership rule into
-- spans; an entity without spans, or a series without an entity, is always a member.
-- grain: (series_id, segment)
-- invariants: one row per segment_stats row; formed_at <= first_timestamp.
WITH source AS (
  SELECT s.series_id, s.segment, s.detail_category, s.frequency, s.first_timestamp, k.entity_id
  FROM segment_stats AS s
  JOIN series AS k USING (series_id)
),
formed AS (
  SELECT *, min(first_timestamp) OVER (PARTITION BY detail_category, frequency, segment) AS formed_at
  FROM source
),
final AS (
  SELECT f.series_id, f.segment, f.formed_at, coalesce(m.member, true) AS member
  FROM formed AS f
  LEFT JOIN member_spans AS m
    ON m.entity_id = f.entity_id
    AND (m."from" IS NULL OR m."from" <= f.formed_at)
    AND (m."to" IS NULL OR f.formed_at < m."to")
)
SELECT * FROM final
