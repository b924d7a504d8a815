-- observation_rows: the rows of the atomic, bitemporal fact table (SPEC §3) with integer keys; the
-- observations view gives them their strings (series_id, frequency, available_at_basis, source_ref).
-- grain: (series_rank, timestamp, available_at)
-- invariants: available_at never null; a re-publication of an unchanged value is not a row (only value
--   changes along available_at are kept); exact duplicate emissions collapse to the first staged one.
--   value NULL is a withdrawal (tombstone, docs/decisions/0007): from its available_at on, the key has no
--   value (as_of_view returns no row); it must follow a row with a value (invariant_violations). A repeated
--   withdrawal collapses like a repeated value; a value published again after a withdrawal is a new row.
--   Uniqueness of the grain and the availability rules are checked in invariant_violations, from the
--   flags computed here (is_first_vintage, shares_grain) so that no check needs another pass. Every row's
--   series, basis and ref keys resolve in observation_series and stg_keys (rows whose keys do not are
--   dropped here, as the joins for their strings would drop them).
-- No string is stored per row: writing series_id, frequency, basis and ref into every row of the table cost
--   more than the window (issue 21); series_rank (observation_series) carries the series and its order.
-- Series with one row per timestamp skip the window (single_vintage, docs/decisions/0036): on the default
--   build that is 99.6% of the rows, and the window's sort was most of this model's time.
WITH source AS NOT MATERIALIZED (
  -- Read where it is used: materialised, as a CTE read three times is by default, it copied every staged row.
  SELECT * FROM stg_observations
),
staged_rows AS (
  -- Only the flagged series' rows are counted: a universe staged another way (the scale source) pays nothing.
  SELECT series_key, count(*) AS n FROM source SEMI JOIN stg_single_vintage USING (series_key) GROUP BY series_key
),
single_vintage AS (
  -- Series StageSink saw with strictly rising timestamps (one row per timestamp) and that still hold exactly
  -- the rows it staged: each row is its key's only vintage, so the window below would keep every one of
  -- them unchanged. Checked by the count, not trusted: rows staged for the key another way send it through
  -- the window.
  SELECT v.series_key FROM stg_single_vintage AS v
  JOIN staged_rows AS c ON c.series_key = v.series_key AND c.n = v.rows
),
changes AS (
  -- Each (series, timestamp) in availability order: a row whose value equals the previous row's is either
  -- an exact duplicate emission or an unchanged re-publication; both are dropped. The window is one per
  -- series, ordered by timestamp first, and the previous row counts only when it has the same timestamp:
  -- the same rows as a window per (series, timestamp), ~15% faster (most keys hold one row, and DuckDB
  -- pays per partition; issue 21's bench).
  SELECT
    *,
    CASE WHEN lag(ts_us) OVER w = ts_us THEN lag(value) OVER w END AS previous_value,
    CASE WHEN lag(ts_us) OVER w = ts_us THEN lag(available_at_us) OVER w END AS previous_available_at_us,
    -- "no earlier row" apart from "the earlier row is a withdrawal" (value null).
    coalesce(lag(ts_us) OVER w = ts_us, false) AS has_previous
  FROM source
  ANTI JOIN single_vintage AS v ON v.series_key = source.series_key
  WINDOW w AS (PARTITION BY series_key ORDER BY ts_us, available_at_us, stage_seq)
),
kept AS (
  SELECT *, NULL::DOUBLE AS previous_value, NULL::DOUBLE AS previous_available_at_us, false AS has_previous
  FROM source
  SEMI JOIN single_vintage AS v ON v.series_key = source.series_key
  UNION ALL
  SELECT * FROM changes
  WHERE NOT has_previous OR previous_value IS DISTINCT FROM value
),
renamed AS (
  SELECT
    k.series_rank,
    make_timestamptz(CAST(c.ts_us AS BIGINT)) AS "timestamp",
    CASE WHEN p.period_start_us IS NULL THEN NULL ELSE make_timestamptz(CAST(p.period_start_us AS BIGINT)) END AS period_start,
    CASE WHEN c.available_at_us IS NULL OR isnan(c.available_at_us) THEN NULL
      ELSE make_timestamptz(CAST(c.available_at_us AS BIGINT)) END AS available_at,
    c.value,
    c.basis_key,
    c.ref_key,
    NOT c.has_previous AS is_first_vintage,
    c.previous_available_at_us IS NOT DISTINCT FROM c.available_at_us AND c.has_previous AS shares_grain
  FROM kept AS c
  JOIN observation_series AS k ON k.series_key = c.series_key
  LEFT JOIN stg_observation_periods AS p ON p.series_key = c.series_key AND p.stage_seq = c.stage_seq
  SEMI JOIN stg_keys AS b ON b.kind = 'basis' AND b.key = c.basis_key
  SEMI JOIN stg_keys AS r ON r.kind = 'ref' AND r.key = c.ref_key
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
