-- update_reused_series: the OLD series an update carries over unchanged (their declaration, rows before any
-- cut, corporate actions and segments), chosen by source (a raw folder whose files are OLD's) or by price
-- instrument (reused, or appended to: update-price-append.ts).
-- Reads old_series (OLD's series.parquet), reuse_sources (sources reused whole), reuse_ciks (EDGAR companies
-- reused) and reuse_symbols (price instruments reused or appended to).
-- grain: series_id
-- invariants: a raw EDGAR/FRED folder's series are the non-synthetic series of that source; a raw prices
--   folder's are the px:/pxadj: series (synthetic price series are syn:-prefixed).
WITH source AS (
  SELECT series_id, source, is_synthetic, entity_id, frequency, n_revisions, first_timestamp FROM old_series
),
final AS (
  SELECT series_id, entity_id, frequency, n_revisions, first_timestamp
  FROM source
  WHERE (NOT is_synthetic AND source = 'edgar' AND 'edgar' IN (SELECT source FROM reuse_sources))
     OR (NOT is_synthetic AND source = 'edgar' AND entity_id IN (SELECT cik FROM reuse_ciks))
     OR (NOT is_synthetic AND source = 'fred' AND 'fred' IN (SELECT source FROM reuse_sources))
     OR (regexp_matches(series_id, '^(px|pxadj):') AND 'prices' IN (SELECT source FROM reuse_sources))
     OR regexp_extract(series_id, '^(?:px|pxadj):(.+):(?:open|high|low|close|volume|tr)$', 1)
        IN (SELECT symbol FROM reuse_symbols)
)
SELECT * FROM final
