-- update_reused_keys: the stg_keys rows OLD's rows of carried-over series need and the update did not
-- stage: a series key per carried-over series, a basis and a ref key per text of their rows. Added to
-- stg_keys before those rows are staged (update_reused_rows), so the observation models of
-- @asof/transform run over the whole universe as in a build.
-- Reads update_reused_series, stg_keys, $old_files (OLD's observation files).
-- grain: (kind, key)
-- invariants: keys of a kind follow the staged ones (their max + 1…, in text order); no text of a kind has
--   two keys.
WITH pairs AS (
  SELECT available_at_basis, source_ref FROM read_parquet($old_files)
  WHERE series_id IN (SELECT series_id FROM update_reused_series)
  GROUP BY ALL
),
texts AS (
  SELECT 'series' AS kind, series_id AS text FROM update_reused_series
  UNION
  SELECT 'basis', available_at_basis FROM pairs
  UNION
  SELECT 'ref', source_ref FROM pairs
),
fresh AS (
  SELECT t.kind, t.text FROM texts AS t
  ANTI JOIN stg_keys AS k ON k.kind = t.kind AND k.text = t.text
),
final AS (
  SELECT f.kind,
    CAST(coalesce((SELECT max(k.key) FROM stg_keys AS k WHERE k.kind = f.kind), -1)
      + row_number() OVER (PARTITION BY f.kind ORDER BY f.text) AS INTEGER) AS key,
    f.text
  FROM fresh AS f
)
SELECT * FROM final
