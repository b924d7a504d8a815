-- series_catalog: the series of a built universe a user asked for (`asof series`), one row per series with
-- what a newcomer needs to pick one: id, title, unit, taxonomy unit, frequency, first/last period, counts.
-- grain: series_id
-- invariants: every word of $search occurs (case-insensitively) in the id, title, source key, entity, unit or
--   taxonomy names; $unit / $frequency / $source are '' (any) or exact; $eval_only keeps eval targets only.
WITH source AS (
  SELECT * FROM read_parquet($series_file)
),
renamed AS (
  SELECT
    series_id, title, unit, scope, category, detail_category, frequency, source, fiscal_year_end,
    scope || '/' || category || '/' || detail_category || '/' || frequency AS taxonomy_unit,
    first_timestamp, last_timestamp, n_obs, n_revisions, eval_target,
    lower(concat_ws(' ', series_id, title, source_key, entity_id, entity_name, unit, scope, category,
      detail_category)) AS haystack
  FROM source
),
final AS (
  SELECT * EXCLUDE (haystack)
  FROM renamed
  WHERE coalesce((SELECT bool_and(contains(haystack, t))
                   FROM unnest(list_filter(string_split(lower($search), ' '), w -> w <> '')) AS u(t)), true)
    AND ($unit = '' OR taxonomy_unit = $unit)
    AND ($frequency = '' OR frequency = $frequency)
    AND ($source = '' OR source = $source)
    AND (NOT $eval_only OR eval_target)
)
SELECT * FROM final ORDER BY series_id
