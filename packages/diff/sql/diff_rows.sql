-- diff_rows: every observation row that differs between universes A and B, classified (asof diff).
-- Reads a_obs / b_obs (observations of A and B, filtered to the series asked for) and diff_series.
-- grain: (series_id, timestamp, available_at, side) — side 'b' for a row of B, 'a' for a row only A has.
-- invariants: rows of new and removed series are not listed (diff_series counts them). A row of B whose
--   grain A lacks is, by what A knew of its (series_id, timestamp):
--   'new_observation'  A had no row for the timestamp (a new period, bar or release);
--   'withdrawal'       a later vintage with value NULL (docs/decisions/0007);
--   'revision'         a later vintage with a value, in a point-in-time series (ALFRED vintages, filings);
--   'restatement'      a later value in a static series, or dated by a download (source_ref a raw file's
--                      sha256): the vendor's file carries no revision dates (Stooq/Yahoo history, fredgraph
--                      CSVs), so the value changed silently between two downloads and is dated by the
--                      download that shows it. (A series of an entity an index file names is point_in_time
--                      for its membership, docs/decisions/0021; its downloads still carry no vintages.)
--   'rewritten'        a row dated at or before A's latest row of the timestamp: history A had recorded
--                      changed (also a row of A with another value at the same grain, or one B lost).
--   old_value/old_available_at are the row it supersedes: A's row at the same grain when A has one, else
--   the previous row of the timestamp in B. A new vintage is a distinct available_at of a series' B rows.
WITH common AS (
  SELECT series_id, universe_kind FROM diff_series WHERE status = 'common'
),
a AS (
  SELECT o.series_id, o."timestamp", o.available_at, o.value, o.available_at_basis, o.source_ref
  FROM a_obs AS o SEMI JOIN common USING (series_id)
),
b AS (
  SELECT o.series_id, o."timestamp", o.available_at, o.value, o.available_at_basis, o.source_ref,
    lag(o.value) OVER w AS prev_value, lag(o.available_at) OVER w AS prev_available_at
  FROM b_obs AS o SEMI JOIN common USING (series_id)
  WINDOW w AS (PARTITION BY o.series_id, o."timestamp" ORDER BY o.available_at)
),
a_keys AS (
  SELECT series_id, "timestamp", max(available_at) AS a_last_at FROM a GROUP BY series_id, "timestamp"
),
joined AS (
  SELECT
    coalesce(b.series_id, a.series_id) AS series_id,
    coalesce(b."timestamp", a."timestamp") AS "timestamp",
    coalesce(b.available_at, a.available_at) AS available_at,
    a.series_id IS NOT NULL AS in_a,
    b.series_id IS NOT NULL AS in_b,
    a.value AS a_value,
    b.value AS b_value,
    b.prev_value,
    b.prev_available_at,
    coalesce(b.available_at_basis, a.available_at_basis) AS available_at_basis,
    coalesce(b.source_ref, a.source_ref) AS source_ref
  FROM b FULL OUTER JOIN a USING (series_id, "timestamp", available_at)
  WHERE a.series_id IS NULL OR b.series_id IS NULL OR a.value IS DISTINCT FROM b.value
),
classified AS (
  SELECT
    j.*,
    k.a_last_at,
    c.universe_kind,
    CASE
      WHEN j.in_a THEN 'rewritten'
      WHEN k.a_last_at IS NULL THEN 'new_observation'
      WHEN j.available_at <= k.a_last_at THEN 'rewritten'
      WHEN j.b_value IS NULL THEN 'withdrawal'
      WHEN c.universe_kind = 'static' OR regexp_full_match(j.source_ref, '(sha256:)?[0-9a-f]{64}') THEN 'restatement'
      ELSE 'revision'
    END AS kind
  FROM joined AS j
  JOIN common AS c USING (series_id)
  LEFT JOIN a_keys AS k USING (series_id, "timestamp")
),
final AS (
  SELECT
    series_id, "timestamp", available_at, kind,
    CASE WHEN in_b THEN 'b' ELSE 'a' END AS side,
    CASE WHEN in_a THEN a_value ELSE prev_value END AS old_value,
    CASE WHEN in_a THEN available_at ELSE prev_available_at END AS old_available_at,
    b_value AS new_value,
    CASE WHEN in_b THEN available_at END AS new_available_at,
    available_at_basis, source_ref
  FROM classified
)
SELECT * FROM final
