-- update_staged_series: the series the update staged rows of (sources and instruments read again, appended
-- instruments), with their declared frequency, taken before OLD's rows of carried-over series are staged.
-- Reads stg_observations, stg_keys, stg_series.
-- grain: series_id
-- invariants: a series with a staged row that the model keeps (every series with a staged row: the first
--   row of a key is always kept).
WITH source AS (
  SELECT DISTINCT series_key FROM stg_observations
),
final AS (
  SELECT k.text AS series_id, s.frequency
  FROM source AS o
  JOIN stg_keys AS k ON k.kind = 'series' AND k.key = o.series_key
  LEFT JOIN (SELECT DISTINCT series_id, frequency FROM stg_series) AS s ON s.series_id = k.text
)
SELECT * FROM final
