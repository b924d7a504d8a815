-- scale_series: one row per synthetic series of the scale universe (SPEC §12).
-- grain: series_idx
-- Each unit of scale_units (FinVerse Table 1 shape × scale) gets n_series series numbered from the unit's
-- first_idx; a series' history length is the unit's mean points per series × (0.5 + u), u uniform from the
-- counter-based hash of (seed, 'len', series_idx), so lengths average FinVerse's and starts are staggered.
WITH source AS (
  SELECT * FROM scale_units
),
expanded AS (
  SELECT u.*, CAST(unnest(range(u.n_series)) AS INTEGER) AS i FROM source AS u
),
draws AS (
  SELECT
    *,
    CAST(first_idx + i AS INTEGER) AS series_idx,
    CAST(hash($seed, 'len', first_idx + i) AS DOUBLE) / 18446744073709551616.0 AS u_len,
    CAST(hash($seed, 'mu', first_idx + i) AS DOUBLE) / 18446744073709551616.0 AS u_mu,
    CAST(hash($seed, 'base', first_idx + i) AS DOUBLE) / 18446744073709551616.0 AS u_base
  FROM expanded
),
renamed AS (
  SELECT
    series_idx,
    -- Short ids (the unit is in source_key and title): observations carry series_id on every row.
    'syn:scale:' || lpad(CAST(series_idx AS VARCHAR), 6, '0') AS series_id,
    'scale' AS source,
    slug || '/' || lpad(CAST(i AS VARCHAR), 6, '0') AS source_key,
    'Synthetic ' || detail_category || ' (' || frequency || ') #' || CAST(i AS VARCHAR) AS title,
    CASE kind WHEN 'volume' THEN 'shares' WHEN 'fundamental' THEN 'USD' ELSE 'index' END AS unit,
    frequency, scope, category, detail_category,
    CASE WHEN scope = 'Individual' THEN 'syn:scale:' || entity_slug || ':' || lpad(CAST(i AS VARCHAR), 6, '0') END AS entity_id,
    CASE WHEN scope = 'Individual' THEN 'Synthetic ' || category || ' ' || CAST(i AS VARCHAR) END AS entity_name,
    CASE WHEN kind IN ('bar', 'fundamental') THEN 'USD' END AS currency,
    CASE WHEN kind = 'macro' THEN 'NSA' END AS seasonal_adjustment,
    CASE WHEN kind = 'fundamental' THEN '12-31' END AS fiscal_year_end,
    kind,
    greatest(2, CAST(round(mean_len * (0.5 + u_len)) AS INTEGER)) AS len,
    sigma,
    sigma * 0.005 * (2 * u_mu - 1) AS mu,
    10 + 90 * u_base AS base
  FROM draws
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
