-- question_series: the series questions are asked about, by role, from the universe's series table.
--   close:  as-traded daily closes of single equities (VAL, RANK, EVT close events); vendor-adjusted
--           series have another detail category and are never asked about.
--   macro:  monthly and quarterly macro series with vintages (ALFRED, FRED-MD, RTDSM): EVT release events.
--   fund:   EDGAR quarterly fundamentals FUND asks for (revenue, net income, diluted EPS, operating cash
--           flow); revenue is also EVT's year-on-year event.
-- Inputs of an instance may be any series of the universe (question_inputs.sql), not only these.
-- grain: series_id
WITH source AS (
  SELECT * FROM read_parquet($series_file, hive_partitioning = false)
),
renamed AS (
  SELECT
    series_id, title, frequency, source, coalesce(entity_id, series_id) AS entity_id,
    scope, category, detail_category,
    regexp_extract(series_id, ':(revenue|net-income|eps-diluted|operating-cash-flow):Q$', 1) AS fund_metric
  FROM source
),
final AS (
  SELECT
    series_id, title, frequency, source, entity_id,
    CASE
      WHEN scope = 'Individual' AND detail_category = 'Equity OHLCV Close' AND frequency IN ('BD', 'D')
        AND series_id LIKE '%:close' THEN 'close'
      WHEN source IN ('fred', 'fredmd', 'rtdsm') AND frequency IN ('M', 'Q') THEN 'macro'
      WHEN source = 'edgar' AND fund_metric <> '' THEN 'fund'
    END AS role,
    nullif(fund_metric, '') AS fund_metric
  FROM renamed
)
SELECT * FROM final WHERE role IS NOT NULL ORDER BY series_id
