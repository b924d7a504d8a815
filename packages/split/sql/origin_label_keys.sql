-- origin_label_keys: each distinct (frequency, origin instant, fiscal) the origins hold, for the period label
-- of an origin (`2019-12`, `2019Q4`, `FY2019`, `2020-03-04`; @asof/calendar periodLabel). The label needs the
-- New York date of the instant; SQL works in UTC only (docs/decisions/0002, 0024), so TypeScript
-- labels these few keys (origins share grid instants across series) and labelled_origins.sql joins them back.
-- grain: (frequency, origin, fiscal)
-- invariants: fiscal is true only for annual series whose fiscal year does not end in December.
WITH source AS (
  SELECT o.frequency, o.origin, s.fiscal_year_end
  FROM origins AS o
  JOIN split_series AS s USING (series_id)
),
final AS (
  SELECT DISTINCT frequency, origin, (frequency = 'A' AND coalesce(fiscal_year_end, '1231') <> '1231') AS fiscal
  FROM source
)
SELECT * FROM final ORDER BY frequency, origin, fiscal
