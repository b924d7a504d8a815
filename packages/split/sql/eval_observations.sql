-- eval_observations: the observation rows (all vintages) of the evaluation-target series from the first grid
-- step any input window or target can reach, with the grid step of its timestamp, so windows can be cut by
-- step number with range joins.
-- grain: (series_key, "timestamp", available_at) — series_key from series_keys.sql
-- invariants: one row per source observation row at or after the series' first_index step; step_index and
--   n_vintages (rows of the timestamp) from series_grid.
-- first_index bounds every step the split reads here: an origin o has origin_index >= first_eval_index (the
-- first grid step at or after eval_start), and its input window starts at or after origin_index − lookback −
-- u − w + 1 (input_windows.sql), u = the steps <= o not yet released at o (each released after eval_start,
-- since o >= eval_start) and w = the withdrawal rows up to o (each a vintage beyond a timestamp's first);
-- targets lie after the origin. At FinVerse scale that skips the bars' years before eval_start − lookback,
-- most rows. A series with no grid step at or after eval_start has a NULL first_index, which greatest() passes
-- over: all its rows are kept, though with no origin nothing reads them. Withdrawals of any age are read from
-- withdrawn_vintages.sql.
-- available_at_basis and source_ref are stored as ENUM codes (run-split.ts SPLIT_CODES): a table of strings
-- costs most of this model's insert, and the tables built from it (inputs, targets…) inherit the codes; the
-- writes turn them back into the same text.
WITH bounds AS (
  SELECT
    g.series_key,
    min(g.step_index) FILTER (WHERE g."timestamp" >= $eval_start::TIMESTAMPTZ) - any_value(k.lookback_steps)
      - count(*) FILTER (WHERE g.first_available_at > g."timestamp" AND g.first_available_at > $eval_start::TIMESTAMPTZ)
      - sum(g.n_vintages - 1) + 1 AS first_index
  FROM series_grid AS g
  JOIN series_keys AS k USING (series_key)
  GROUP BY g.series_key
),
first_read AS (
  SELECT b.series_key, g."timestamp" AS first_timestamp
  FROM bounds AS b
  JOIN series_grid AS g ON g.series_key = b.series_key AND g.step_index = greatest(b.first_index, 1)
),
source AS (
  SELECT
    k.series_key, o."timestamp", o.period_start, o.available_at, o.value,
    CAST(o.available_at_basis AS asof_basis_text) AS available_at_basis,
    CAST(o.source_ref AS asof_ref_text) AS source_ref
  FROM split_observations AS o
  JOIN series_keys AS k USING (series_id)
  JOIN first_read AS f USING (series_key)
  WHERE k.eval_target AND o."timestamp" >= f.first_timestamp
),
renamed AS (
  SELECT s.*, g.step_index, g.n_vintages
  FROM source AS s
  JOIN series_grid AS g USING (series_key, "timestamp")
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
