-- qlib_pit_records: every vintage of the EDGAR fundamentals known at $as_of, for Qlib's point-in-time
-- store (financial/<symbol>/<field>_{q,a}.data): a revision is a later record of the same period, a
-- withdrawal (value NULL, docs/decisions/0007) a record whose value is NaN. Records are in publication
-- order per field, as Qlib's dump_pit writes them. The symbol, field and interval of each series come from
-- qlib_pit_series (chosen in TypeScript).
-- grain: (series_id, "timestamp", available_at)
-- $observation_files: exactly the observation files a verified manifest lists (never a glob).
WITH source AS (
  SELECT * FROM read_parquet($observation_files, hive_partitioning = false)
),
renamed AS (
  SELECT o.series_id, o."timestamp", o.available_at, p.symbol, p.field, p.quarterly,
         epoch_us(o."timestamp") AS timestamp_us, epoch_us(o.available_at) AS available_us, o.value
  FROM source AS o JOIN qlib_pit_series AS p USING (series_id)
  WHERE o.available_at <= $as_of::TIMESTAMPTZ
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final ORDER BY symbol, field, quarterly, available_at, "timestamp", series_id
