-- published_observations: the `observations` config of a published dataset: every observation (every
-- vintage, with its available_at) of the universe, or of a split's training data, one long table. The
-- universe keeps frequency in its folder names (observations/frequency=M/…); a Hugging Face reader sees
-- one file, so the column comes from the series table.
-- grain: (series_id, "timestamp", available_at)
WITH source AS (
  SELECT series_id, "timestamp", period_start, available_at, value, available_at_basis, source_ref
  FROM publish_observations_source
),
series AS (
  SELECT series_id, frequency FROM publish_series_source
),
renamed AS (
  SELECT
    o.series_id, s.frequency, o."timestamp", o.period_start, o.available_at, o.value,
    o.available_at_basis, o.source_ref
  FROM source AS o
  JOIN series AS s USING (series_id)
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
ORDER BY series_id, "timestamp", available_at
