-- labelled_origins: the origins as written to origins.parquet, with origin_label — the origin's period in
-- the series' own terms (origin_label_keys.sql), which forecast files may give instead of the instant.
-- grain: (series_id, origin)
-- invariants: one row per origins row; origin_label is never NULL.
WITH source AS (
  SELECT o.*, (o.frequency = 'A' AND coalesce(s.fiscal_year_end, '1231') <> '1231') AS fiscal
  FROM origins AS o
  JOIN split_series AS s USING (series_id)
),
final AS (
  SELECT v.* EXCLUDE (fiscal), l.origin_label
  FROM source AS v
  JOIN origin_label_values AS l USING (frequency, origin, fiscal)
)
SELECT * FROM final
