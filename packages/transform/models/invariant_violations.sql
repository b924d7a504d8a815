-- invariant_violations: every broken build invariant, one row each (SPEC §3–§4). Empty in a good build.
-- grain: (check_name, series_id, timestamp, available_at)
WITH source AS (
  SELECT * FROM observations
),
null_available AS (
  SELECT 'available_at_null' AS check_name, series_id, "timestamp", available_at, value,
    'available_at may never be null' AS detail
  FROM source WHERE available_at IS NULL
),
early AS (
  SELECT 'available_before_timestamp' AS check_name, series_id, "timestamp", available_at, value,
    'a ' || available_at_basis || ' value cannot be public before the instant it is about' AS detail
  FROM source WHERE available_at < "timestamp" AND available_at_basis IN ('bar_close', 'filing')
),
duplicate_grain AS (
  SELECT 'duplicate_grain' AS check_name, series_id, "timestamp", available_at, value,
    'two different values (or a value and a withdrawal) share (series_id, timestamp, available_at)' AS detail
  FROM source WHERE shares_grain
),
unknown_series AS (
  SELECT 'observation_without_series' AS check_name, series_id, "timestamp", available_at, value,
    'the source emitted rows for a series it never declared' AS detail
  FROM source WHERE frequency IS NULL
),
orphan_withdrawal AS (
  SELECT 'withdrawal_without_value' AS check_name, series_id, "timestamp", available_at, value,
    'a withdrawal (value NULL) must follow a vintage with a value of the same (series_id, timestamp)' AS detail
  FROM source WHERE value IS NULL AND is_first_vintage
),
duplicate_series AS (
  SELECT 'duplicate_series' AS check_name, series_id, NULL::TIMESTAMPTZ AS "timestamp", NULL::TIMESTAMPTZ AS available_at,
    NULL::DOUBLE AS value, 'declared ' || count(*) || ' times' AS detail
  FROM stg_series GROUP BY series_id HAVING count(*) > 1
),
final AS (
  SELECT * FROM null_available
  UNION ALL SELECT * FROM early
  UNION ALL SELECT * FROM duplicate_grain
  UNION ALL SELECT * FROM unknown_series
  UNION ALL SELECT * FROM orphan_withdrawal
  UNION ALL SELECT * FROM duplicate_series
)
SELECT * FROM final
