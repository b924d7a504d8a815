-- Staging tables the sources append into (one row per emitted item, in emission order = stage_seq).
-- Instants arrive as epoch microseconds in DOUBLE (exact below 2^53) and become TIMESTAMPTZ in the models.
-- Observation rows carry integer keys into stg_keys instead of strings: string values are by far the
-- slowest thing to hand from JavaScript to DuckDB, and series ids and source refs repeat heavily.
CREATE TABLE stg_series (
  series_id VARCHAR, source VARCHAR, source_key VARCHAR, title VARCHAR, unit VARCHAR, frequency VARCHAR,
  scope VARCHAR, category VARCHAR, detail_category VARCHAR, entity_id VARCHAR, entity_name VARCHAR,
  currency VARCHAR, seasonal_adjustment VARCHAR, fiscal_year_end VARCHAR, is_synthetic BOOLEAN,
  universe_kind VARCHAR, stage_seq BIGINT
);
CREATE TABLE stg_observations (
  series_key INTEGER, ts_us DOUBLE, available_at_us DOUBLE, value DOUBLE, basis_key INTEGER, ref_key INTEGER,
  stage_seq DOUBLE
);
-- The period_start of the staged rows that have one (EDGAR's duration facts), by stage_seq: a column of
-- stg_observations would be NULL in nearly every row and still cost 8 bytes and a validity block in each
-- (in-memory tables are not compressed): ~60 MB on the default build, 1.8 GB at bench scale 1 (issue 21).
CREATE TABLE stg_observation_periods (series_key INTEGER, stage_seq DOUBLE, period_start_us DOUBLE);
CREATE TABLE stg_keys (kind VARCHAR, key INTEGER, text VARCHAR);
-- The series keys whose staged rows StageSink saw with strictly rising timestamps in staging order (so one
-- row per timestamp), with how many rows it staged for each: observation_rows takes them without a window
-- when stg_observations still holds exactly that many rows of the key.
CREATE TABLE stg_single_vintage (series_key INTEGER, rows BIGINT);
CREATE TABLE stg_corporate_actions (
  entity_id VARCHAR, ex_date VARCHAR, kind VARCHAR, value DOUBLE, available_at_us DOUBLE, source_ref VARCHAR,
  stage_seq BIGINT
);
-- One version of a membership interval per row (MembershipRow), a null instant being an open end.
CREATE TABLE stg_membership (
  entity_id VARCHAR, universe VARCHAR, from_us DOUBLE, to_us DOUBLE, available_at_us DOUBLE, source VARCHAR,
  source_ref VARCHAR, effective_from VARCHAR, effective_to VARCHAR, stage_seq BIGINT
);
CREATE TABLE registry_units (
  scope VARCHAR, category VARCHAR, detail_category VARCHAR, frequency VARCHAR, eval_target BOOLEAN, finverse BOOLEAN
);
CREATE TABLE registry_horizons (frequency VARCHAR, prediction_length INTEGER, minimum_lookback INTEGER);
CREATE TABLE registry_unit_tasks (
  scope VARCHAR, category VARCHAR, detail_category VARCHAR, frequency VARCHAR, aspect VARCHAR, metric VARCHAR,
  p VARCHAR, h VARCHAR, p_steps INTEGER, h_steps INTEGER
);
