-- observations: the atomic, bitemporal fact table (SPEC §3).
-- grain: (series_id, timestamp, available_at)
-- invariants: available_at never null; a re-publication of an unchanged value is not a row (only value
--   changes along available_at are kept); exact duplicate emissions collapse to the first staged one.
--   Uniqueness of the grain and the availability rules are checked in invariant_violations.
WITH source AS (
  SELECT o.*, k.text AS series_id, b.text AS available_at_basis, r.text AS source_ref
  FROM stg_observations AS o
  JOIN stg_keys AS k ON k.kind = 'series' AND k.key = o.series_key
  JOIN stg_keys AS b ON b.kind = 'basis' AND b.key = o.basis_key
  JOIN stg_keys AS r ON r.kind = 'ref' AND r.key = o.ref_key
),
renamed AS (
  SELECT
    series_id,
    make_timestamp(CAST(ts_us AS BIGINT))::TIMESTAMPTZ AS "timestamp",
    CASE WHEN period_start_us IS NULL THEN NULL ELSE make_timestamp(CAST(period_start_us AS BIGINT))::TIMESTAMPTZ END AS period_start,
    CASE WHEN available_at_us IS NULL OR isnan(available_at_us) THEN NULL ELSE make_timestamp(CAST(available_at_us AS BIGINT))::TIMESTAMPTZ END AS available_at,
    value,
    available_at_basis,
    source_ref,
    stage_seq
  FROM source
),
changes AS (
  -- One window per (series_id, timestamp) in availability order: a row whose value equals the previous
  -- row's is either an exact duplicate emission or an unchanged re-publication; both are dropped.
  SELECT
    *,
    lag(value) OVER (PARTITION BY series_id, "timestamp" ORDER BY available_at, stage_seq) AS previous_value
  FROM renamed
),
final AS (
  SELECT
    c.series_id, c."timestamp", c.period_start, c.available_at, c.value, c.available_at_basis, c.source_ref,
    s.frequency
  FROM changes AS c
  LEFT JOIN stg_series AS s USING (series_id)
  WHERE c.previous_value IS NULL OR c.previous_value IS DISTINCT FROM c.value
)
SELECT * FROM final
