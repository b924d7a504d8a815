-- baseline_compact_inputs: the rows of a compact split's input_rows.parquet that some origin is served —
-- input_rows.sql's read rule (lookback_start <= "timestamp" <= o, available_at <= o < superseded_at) — which
-- is what the per-origin layout's inputs.parquet carries. The file also holds vintages no origin's window
-- reaches; served to the baselines they would change nothing the guard lets through, but they would make
-- the history differ from the per-origin split's.
-- Reads the views split_input_rows and split_origins (the verified files).
-- grain: (series_id, "timestamp", available_at)
WITH source AS (
  SELECT series_id, "timestamp", available_at, value, superseded_at FROM split_input_rows
),
served AS (
  SELECT r.series_id, r."timestamp", r.available_at, r.value
  FROM source AS r
  WHERE EXISTS (
    SELECT 1 FROM split_origins AS o
    WHERE o.series_id = r.series_id AND r."timestamp" BETWEEN o.lookback_start AND o.origin
      AND r.available_at <= o.origin AND (r.superseded_at IS NULL OR r.superseded_at > o.origin)
  )
)
SELECT * FROM served
