-- scale_revisions: later vintages of some macro values (revisions, 30 days after release, basis vintage)
-- and fundamentals (restated in the next annual filing, 365 days later, basis filing), in
-- stg_observations' shape (SPEC §4, §12). Which rows are revised and by how much comes from
-- hash(seed, 'rev', series_key, ts_us): the same at any thread count.
-- grain: (series_key, ts_us)
WITH source AS (
  SELECT o.*, s.kind
  FROM stg_observations AS o
  JOIN scale_series AS s ON o.series_key = s.series_idx + $key_offset
  WHERE s.kind IN ('macro', 'fundamental')
),
draws AS (
  SELECT *, hash($seed, 'rev', series_key, ts_us) AS h FROM source
),
picked AS (
  SELECT * FROM draws
  WHERE CAST(h >> 11 AS DOUBLE) / 9007199254740992.0
    < CASE kind WHEN 'macro' THEN $revision_share ELSE $restatement_share END
),
renamed AS (
  SELECT
    series_key, ts_us,
    available_at_us + CASE kind WHEN 'macro' THEN 30 ELSE 365 END * 86400e6 AS available_at_us,
    round(value * (1 + 0.02 * (CAST(h & 1048575 AS DOUBLE) / 1048576.0 - 0.5)), 4) AS value,
    basis_key,
    $key_offset + CASE kind WHEN 'macro' THEN 2 ELSE 4 END AS ref_key,
    stage_seq + 1 AS stage_seq
  FROM picked
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
