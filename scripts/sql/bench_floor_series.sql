-- bench_floor_series: the series table the floor pass needs to write observation files at all (SPEC §3
-- columns): the series' text id, its frequency (the partition) and a rank sorting like the id.
-- grain: series_key
-- invariants: one row per staged series key; series_rank orders series_id.
WITH source AS (
  SELECT k.key AS series_key, k.text AS series_id, s.frequency
  FROM stg_keys AS k
  LEFT JOIN stg_series AS s ON s.series_id = k.text
  WHERE k.kind = 'series'
),
renamed AS (
  SELECT series_key, series_id, frequency, CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_rank
  FROM source
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
