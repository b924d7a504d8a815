-- input_rows: the compact form of the inputs (--inputs compact), for policies whose per-origin inputs would
-- be origins × lookback rows: every observation row some served origin can see, once, with the instant it
-- was superseded by the next vintage of its timestamp. The input at origin o of series s is
--   series_id = s AND "timestamp" BETWEEN lookback_start AND o AND available_at <= o
--   AND (superseded_at IS NULL OR superseded_at > o)
-- with lookback_start from origins.parquet — the same rows as the per-origin form. Withdrawal rows (value
-- NULL) are not written: they only end the previous row's life (its superseded_at), so a withdrawn value is
-- not served at origins after its withdrawal, as in the per-origin form.
-- step_index is the row's grid step (series_grid.sql), as in the per-origin inputs.
-- grain: (series_id, "timestamp", available_at)
-- invariants: superseded_at > available_at; available_at <= the last origin of the series; value never NULL.
WITH source AS (
  SELECT series_key, min(lookback_start) AS first_start, min(origin) AS first_origin, max(origin) AS last_origin
  FROM input_windows
  GROUP BY series_key
),
renamed AS (
  SELECT
    o.series_key, o."timestamp", o.period_start, o.available_at, o.value, o.available_at_basis, o.source_ref,
    lead(o.available_at) OVER (PARTITION BY o.series_key, o."timestamp" ORDER BY o.available_at) AS superseded_at,
    o.step_index, s.first_start, s.first_origin, s.last_origin
  FROM eval_observations AS o
  JOIN source AS s USING (series_key)
),
served AS (
  SELECT * EXCLUDE (first_start, first_origin, last_origin)
  FROM renamed
  WHERE "timestamp" >= first_start AND "timestamp" <= last_origin AND available_at <= last_origin
    AND (superseded_at IS NULL OR superseded_at > first_origin)
    AND value IS NOT NULL
),
-- series_id back from series_keys (the split works on the integer key; see series_keys.sql).
final AS (
  SELECT k.series_id, v.* FROM served AS v JOIN series_keys AS k USING (series_key)
)
SELECT * FROM final
