-- vendor_restatements: values a later download of a vendor file changed without the file saying so, per
-- restating download (the build's VENDOR_RESTATED warning, docs/decisions/0022).
-- Reads the build's observations (with is_first_vintage) and series tables.
-- grain: source_ref (the restating download: a raw file's sha256, or sha256:<hex> for fredgraph CSVs)
-- invariants: only static series (their vendors publish no revision dates: Stooq/Yahoo histories, fredgraph
--   CSVs) or rows dated by a download (source_ref a raw file's sha256: a series of an indexed entity is
--   point_in_time for its membership, docs/decisions/0021, but its downloads carry no vintages either), only
--   rows after a timestamp's first (a value changed between two downloads), no withdrawals.
--   The example is the restated value with the earliest timestamp, then the smallest series_id.
WITH restated AS (
  SELECT o.series_id, o."timestamp", o.value, o.source_ref, s.frequency, s.fiscal_year_end,
    lag(o.value) OVER (PARTITION BY o.series_rank, o."timestamp" ORDER BY o.available_at) AS old_value,
    NOT o.is_first_vintage AND o.value IS NOT NULL
      AND (s.universe_kind = 'static' OR regexp_full_match(o.source_ref, '(sha256:)?[0-9a-f]{64}')) AS is_restatement
  FROM observations AS o
  JOIN series AS s USING (series_id)
  WHERE o.series_id IN (
    SELECT series_id FROM observations WHERE NOT is_first_vintage
  )
),
final AS (
  SELECT
    source_ref,
    count(*) AS n_values,
    count(DISTINCT series_id) AS n_series,
    arg_min(series_id, ("timestamp", series_id)) AS example_series_id,
    epoch_us(arg_min("timestamp", ("timestamp", series_id))) AS example_ts,
    arg_min(frequency, ("timestamp", series_id)) AS example_frequency,
    arg_min(fiscal_year_end, ("timestamp", series_id)) AS example_fiscal_year_end,
    arg_min(old_value, ("timestamp", series_id)) AS example_old,
    arg_min(value, ("timestamp", series_id)) AS example_new
  FROM restated
  WHERE is_restatement
  GROUP BY source_ref
)
SELECT * FROM final ORDER BY source_ref
