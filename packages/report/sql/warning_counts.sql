-- What the manifest's warnings are about, counted in the data.
-- grain: one row
SELECT
  (SELECT count(*) FROM in_series WHERE universe_kind = 'static')::INTEGER AS static_series,
  (SELECT count(*) FROM in_series WHERE is_synthetic)::INTEGER AS synthetic_series,
  (SELECT count(*) FROM in_series)::INTEGER AS series,
  (SELECT count(*) FROM in_observations WHERE available_at_basis = 'rule')::DOUBLE AS rule_observations,
  (SELECT count(DISTINCT series_id) FROM in_observations WHERE available_at_basis = 'rule')::INTEGER AS rule_series,
  (SELECT count(*) FROM in_observations WHERE value IS NULL)::INTEGER AS withdrawals,
  (SELECT count(DISTINCT series_id) FROM in_observations WHERE value IS NULL)::INTEGER AS withdrawn_series
