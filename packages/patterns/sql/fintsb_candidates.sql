-- fintsb_candidates: the (series, segment) pairs a FinTSB-style dataset may draw from (SPEC §7, FinTSB §4.1:
-- a cross-section is one price series per distinct stock): labelled $frequency segments of the price series
-- of one OHLCV field ($field) of the instruments the universe evaluates, one series per instrument.
-- grain: (series_id, segment)
-- invariants: at most one row per (instrument, segment), instrument = entity_id, else the series itself;
--   every row's series is a price series (its unit is in price_fields, the registry's OHLCV units) whose
--   field is $field; its instrument has an eval-target series (of any field, so another field of the
--   same instruments can be chosen); all three characteristics are defined. Of several series of one
--   instrument and field (an as-traded close and its total-return index `…:tr`, or `px:` and `pxadj:`
--   histories), the eval target wins, then the total-return index (as-traded closes jump at splits, which
--   would label a split as a crash), then the smallest series_id — chosen before labels are looked at, so
--   the choice never depends on the pattern. pattern = quota_label when $label_mode = 'quota', else the
--   threshold label; NULL (quota remainder) rows are kept, members skip them. Only segments whose entity
--   was a member of the universe when the segment's cross-section formed (segments.member, docs/decisions/
--   0021): a company delisted later is in the datasets before its exit, not after.
WITH priced AS (
  SELECT s.series_id, coalesce(s.entity_id, s.series_id) AS instrument, s.eval_target, f.field
  FROM universe_series AS s
  JOIN price_fields AS f USING (scope, category, detail_category)
),
evaluated AS (
  SELECT instrument FROM priced GROUP BY instrument HAVING bool_or(eval_target)
),
source AS (
  SELECT g.series_id, g.segment, g.frequency, g.detail_category, g.first_timestamp, g.last_timestamp,
    p.instrument, p.field, p.eval_target,
    CASE WHEN $label_mode = 'quota' THEN g.quota_label ELSE g.label END AS pattern
  FROM segments AS g
  JOIN priced AS p USING (series_id)
  WHERE g.frequency = $frequency AND p.field = $field
    AND p.instrument IN (SELECT instrument FROM evaluated)
    AND g.adf_stat IS NOT NULL AND g.acf1 IS NOT NULL AND g.forecastability IS NOT NULL
    AND g.member
),
ranked AS (
  SELECT *,
    row_number() OVER (
      PARTITION BY instrument, segment ORDER BY eval_target DESC, series_id LIKE '%:tr' DESC, series_id
    ) AS preference
  FROM source
),
final AS (
  SELECT series_id, segment, frequency, detail_category, first_timestamp, last_timestamp, instrument, field,
    pattern
  FROM ranked
  WHERE preference = 1
)
SELECT * FROM final
