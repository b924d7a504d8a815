-- bench_floor_observations: the least work any builder must do for one observation file — read the staged
-- rows of a partition, decode them to the published columns, sort them on the grain — with none of asof's
-- modelling (no revision window, no invariants, no taxonomy). `npm run bench` writes it with the same
-- COPY options and parts as the build and times it as the floor the stages are compared to (issue 21).
-- grain: (series_id, timestamp, available_at) of the staged rows (duplicates are kept: the floor does not
--   dedupe)
-- params: $f frequency, $lo/$hi series_rank range of the part
-- series_rank is the sort key, not written: bench.ts sorts on it (sortWithCodes, as the build's write).
WITH source AS (
  SELECT o.*, k.series_id, k.series_rank
  FROM stg_observations AS o
  JOIN bench_floor_series AS k ON k.series_key = o.series_key
  WHERE k.frequency = $f AND k.series_rank BETWEEN $lo AND $hi
),
renamed AS (
  SELECT
    s.series_id,
    make_timestamptz(CAST(s.ts_us AS BIGINT)) AS "timestamp",
    CASE WHEN p.period_start_us IS NULL THEN NULL ELSE make_timestamptz(CAST(p.period_start_us AS BIGINT)) END AS period_start,
    make_timestamptz(CAST(s.available_at_us AS BIGINT)) AS available_at,
    s.value,
    b.text AS available_at_basis,
    r.text AS source_ref,
    s.series_rank
  FROM source AS s
  LEFT JOIN stg_observation_periods AS p ON p.series_key = s.series_key AND p.stage_seq = s.stage_seq
  JOIN stg_keys AS b ON b.kind = 'basis' AND b.key = s.basis_key
  JOIN stg_keys AS r ON r.kind = 'ref' AND r.key = s.ref_key
),
final AS (
  SELECT * FROM renamed
)
SELECT series_id, "timestamp", period_start, available_at, value, available_at_basis, source_ref, series_rank
FROM final
