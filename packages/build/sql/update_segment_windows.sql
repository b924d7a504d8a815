-- update_segment_windows: per frequency and detail category (one family of cross-sections), the first
-- calendar segment an update changes: segments before it are OLD's, byte for byte; from it on they are
-- recomputed over every series of the family (update-segments.ts).
-- Reads observations (the new universe's), update_staged_series (what the update staged), $old_files (OLD's
-- observations), old_series and series, reuse_cuts and append_changes (per series of an appended price
-- instrument, the first timestamp of a row its new downloads added), and $epoch / $len_*
-- (@asof/patterns segmentParams), member_spans and $old_spans (OLD's member_spans.parquet).
-- grain: (frequency, detail_category)
-- invariants: a change is a row of the new universe OLD lacks (same grain and value), a row of OLD the new
--   universe lacks, or every row of a series whose frequency or detail category changed (it moves between
--   families). Rows the update re-staged unchanged (re-read sources, appended instruments' recent
--   window) are no change; an appended instrument's changes are the rows it added (append_changes), so
--   its re-staged window is not compared again. A segment's quota label also depends on whether the entities
--   of its cross-section were members when it formed (segment_members.sql): where an entity's membership
--   differs between the two universes from some instant on (its member_spans, or none: always a member),
--   the segments of its series OLD had change from that instant (or the series' first timestamp, if later:
--   there is no segment of it before). The segment
--   index is segment_placed.sql's: both call grid_position (@asof/duck's sql/macros.sql); frequencies of
--   length 0 have no segments and are left out.
WITH staged_series AS (
  SELECT series_id FROM update_staged_series WHERE series_id NOT IN (SELECT series_id FROM reuse_cuts)
),
old_rows AS (
  SELECT series_id, "timestamp", available_at, value FROM read_parquet($old_files)
  WHERE series_id IN (SELECT series_id FROM staged_series)
     OR series_id IN (SELECT series_id FROM old_series WHERE series_id NOT IN (SELECT series_id FROM series))
),
new_rows AS (
  SELECT series_id, "timestamp", available_at, value FROM observations
  WHERE series_id IN (SELECT series_id FROM staged_series)
),
changed_rows AS (
  (SELECT * FROM new_rows EXCEPT SELECT * FROM old_rows)
  UNION ALL
  (SELECT * FROM old_rows EXCEPT SELECT * FROM new_rows)
),
moved AS (
  -- Series whose family or entity changed, or that one universe lacks: every one of their timestamps is a change.
  SELECT coalesce(n.series_id, o.series_id) AS series_id
  FROM series AS n FULL OUTER JOIN old_series AS o USING (series_id)
  WHERE n.frequency IS DISTINCT FROM o.frequency OR n.detail_category IS DISTINCT FROM o.detail_category
    OR n.entity_id IS DISTINCT FROM o.entity_id
),
old_spans AS (
  SELECT entity_id, "from", "to", member FROM read_parquet($old_spans)
),
new_spans AS (
  SELECT entity_id, "from", "to", member FROM member_spans
),
span_pairs AS (
  -- The first instant at which an entity's membership differs: where a span of one universe overlaps a
  -- span of the other with another member value, from the later of their starts. An entity with spans in
  -- one universe only is, in the other, a member at every instant (segment_members.sql).
  SELECT n.entity_id,
    greatest(coalesce(n."from", TIMESTAMPTZ '1800-01-01 00:00:00+00'), coalesce(o."from", TIMESTAMPTZ '1800-01-01 00:00:00+00')) AS t
  FROM new_spans AS n
  JOIN old_spans AS o
    ON o.entity_id = n.entity_id
    AND (n."to" IS NULL OR o."from" IS NULL OR o."from" < n."to")
    AND (o."to" IS NULL OR n."from" IS NULL OR n."from" < o."to")
  WHERE n.member <> o.member
  UNION ALL
  SELECT entity_id, coalesce("from", TIMESTAMPTZ '1800-01-01 00:00:00+00') FROM new_spans
  WHERE NOT member AND entity_id NOT IN (SELECT entity_id FROM old_spans)
  UNION ALL
  SELECT entity_id, coalesce("from", TIMESTAMPTZ '1800-01-01 00:00:00+00') FROM old_spans
  WHERE NOT member AND entity_id NOT IN (SELECT entity_id FROM new_spans)
),
span_changes AS (
  SELECT entity_id, min(t) AS changed_from FROM span_pairs GROUP BY entity_id
),
member_changes AS (
  SELECT o.series_id, greatest(c.changed_from, o.first_timestamp) AS "timestamp"
  FROM span_changes AS c JOIN old_series AS o USING (entity_id)
  WHERE o.first_timestamp IS NOT NULL
),
changes AS (
  SELECT c.series_id, c."timestamp" FROM changed_rows AS c
  UNION ALL
  SELECT series_id, make_timestamptz(first_changed_us) FROM append_changes
  UNION ALL
  SELECT m.series_id, o.first_timestamp FROM moved AS m JOIN old_series AS o USING (series_id)
  UNION ALL
  SELECT m.series_id, n.first_timestamp FROM moved AS m JOIN series AS n USING (series_id)
  UNION ALL
  SELECT series_id, "timestamp" FROM member_changes
),
families AS (
  -- A change counts in the family of the series in both universes (it left one, joined the other).
  SELECT c."timestamp", s.frequency, s.detail_category FROM changes AS c JOIN series AS s USING (series_id)
  UNION ALL
  SELECT c."timestamp", s.frequency, s.detail_category FROM changes AS c JOIN old_series AS s USING (series_id)
),
placed AS (
  SELECT frequency, detail_category, min("timestamp") AS first_changed,
    CASE frequency WHEN 'BD' THEN $len_bd WHEN 'D' THEN $len_d WHEN 'W' THEN $len_w
      WHEN 'M' THEN $len_m WHEN 'Q' THEN $len_q WHEN 'A' THEN $len_a END::INTEGER AS segment_length
  FROM families WHERE "timestamp" IS NOT NULL GROUP BY frequency, detail_category
),
final AS (
  SELECT frequency, detail_category, segment_length, first_changed,
    CAST(floor(grid_position(first_changed, frequency, $epoch::DATE) / segment_length) AS INTEGER) AS first_segment
  FROM placed WHERE segment_length > 0
)
SELECT * FROM final
