-- scale_observations: the first-release rows of the scale universe, in stg_observations' shape (SPEC §12).
-- grain: (series_key, ts_us)
-- Draws come from hash(seed, series, step) (counter-based: the same at any thread count). Levels are a
-- log random walk whose increments are rounded to integer micro-units before the running sum, so the sum
-- is exact and independent of summation order; volumes are i.i.d. log-normal.
-- Time grids (k = 0 oldest … len − 1 newest, j steps back from the anchor): BD weekdays, D days,
-- W Fridays, M/Q/A period ends. Instants are UTC: bars at 21:00 (at or after the 16:00 New York close
-- all year), macro and fundamentals periods at the end of their last day.
-- available_at: bars at the close (bar_close); macro at period end + release lag at 13:30 UTC
-- (08:30 New York in winter, 09:30 in summer: never early) (vintage); fundamentals at period end + a
-- 25–89 day filing lag at 22:00 UTC (filing).
WITH source AS (
  SELECT * FROM scale_series
),
walk_blocks AS (
  -- The walk's running sum without a sort over every step: steps go in blocks of 16 per series, each block
  -- one row holding its increments as a list (generated in step order, so no sort); a window over the
  -- blocks (1/16 of the rows) gives each block's offset, and a prefix sum inside the list each step's level.
  -- The sums are of integers, so they are the same numbers as one window over every step (issue 21: the
  -- generator's cost was that window's sort, 2/3 of it at scale 0.1).
  SELECT series_idx, sigma, mu, len, CAST(unnest(range((len + 15) // 16)) AS INTEGER) AS block FROM source
  WHERE kind <> 'volume'
),
block_increments AS (
  SELECT
    series_idx, block,
    list_transform(range(16 * block, least(16 * block + 16, len)), lambda j: CAST(round((mu + sigma
      * sqrt(-2 * ln((CAST(hash($seed, series_idx, CAST(j AS INTEGER)) >> 32 AS DOUBLE) + 0.5) / 4294967296.0))
      * cos(2 * pi() * CAST(hash($seed, series_idx, CAST(j AS INTEGER)) & 4294967295 AS DOUBLE) / 4294967296.0)) * 1e6) AS BIGINT)) AS incs
  FROM walk_blocks
),
block_offsets AS (
  SELECT
    series_idx, block, incs,
    coalesce(sum(list_sum(incs)) OVER (PARTITION BY series_idx ORDER BY block ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS offset_cum
  FROM block_increments
),
block_prefixes AS (
  -- Each step's sum of its block's increments up to it, written out for the 16 steps of a block (p1 … p16,
  -- each the one before plus one increment; DuckDB lets a select list reuse an alias it defined earlier).
  -- A list slice per step (list_sum(incs[1:i])) cost ~4× as much: ~10% of the generator's CPU at scale 0.1
  -- (issue 21). A short last block adds 0 past its end, and walks cuts the list to its length. The same
  -- integers either way, so the same rows.
  SELECT
    series_idx, block, offset_cum, len(incs) AS n,
    incs[1] AS p1,
    p1 + coalesce(incs[2], 0) AS p2,
    p2 + coalesce(incs[3], 0) AS p3,
    p3 + coalesce(incs[4], 0) AS p4,
    p4 + coalesce(incs[5], 0) AS p5,
    p5 + coalesce(incs[6], 0) AS p6,
    p6 + coalesce(incs[7], 0) AS p7,
    p7 + coalesce(incs[8], 0) AS p8,
    p8 + coalesce(incs[9], 0) AS p9,
    p9 + coalesce(incs[10], 0) AS p10,
    p10 + coalesce(incs[11], 0) AS p11,
    p11 + coalesce(incs[12], 0) AS p12,
    p12 + coalesce(incs[13], 0) AS p13,
    p13 + coalesce(incs[14], 0) AS p14,
    p14 + coalesce(incs[15], 0) AS p15,
    p15 + coalesce(incs[16], 0) AS p16
  FROM block_offsets
),
walks AS (
  SELECT
    series_idx,
    CAST(16 * block + unnest(range(n)) AS INTEGER) AS k,
    offset_cum + unnest([p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16][1:n]) AS cum
  FROM block_prefixes
),
volume_steps AS (
  SELECT series_idx, CAST(unnest(range(len)) AS INTEGER) AS k FROM source WHERE kind = 'volume'
),
volumes AS (
  SELECT
    series_idx, k,
    sqrt(-2 * ln((CAST(hash($seed, series_idx, k) >> 32 AS DOUBLE) + 0.5) / 4294967296.0))
      * cos(2 * pi() * CAST(hash($seed, series_idx, k) & 4294967295 AS DOUBLE) / 4294967296.0) AS z
  FROM volume_steps
),
steps AS (
  SELECT series_idx, k, cum, CAST(NULL AS DOUBLE) AS z FROM walks
  UNION ALL
  SELECT series_idx, k, CAST(NULL AS BIGINT) AS cum, z FROM volumes
),
dated AS (
  SELECT
    t.series_idx, t.k, t.cum, t.z, s.kind, s.frequency, s.base,
    CASE s.frequency
      WHEN 'BD' THEN $bd_anchor - (7 * ((s.len - 1 - t.k) // 5) + (s.len - 1 - t.k) % 5
        + CASE WHEN (s.len - 1 - t.k) % 5 > $bd_pos THEN 2 ELSE 0 END)
      WHEN 'D' THEN $d_anchor - (s.len - 1 - t.k)
      WHEN 'W' THEN $w_anchor - 7 * (s.len - 1 - t.k)
      WHEN 'M' THEN date_diff('day', DATE '1970-01-01', last_day(CAST($m_first AS DATE) - to_months(s.len - 1 - t.k)))
      WHEN 'Q' THEN date_diff('day', DATE '1970-01-01', last_day(CAST($q_first AS DATE) - to_months(3 * (s.len - 1 - t.k))))
      ELSE date_diff('day', DATE '1970-01-01', last_day(CAST($a_first AS DATE) - to_months(12 * (s.len - 1 - t.k))))
    END AS day
  FROM steps AS t
  JOIN source AS s USING (series_idx)
),
renamed AS (
  SELECT
    series_idx + $key_offset AS series_key,
    CASE WHEN kind IN ('bar', 'volume') THEN day * 86400e6 + 75600e6 ELSE day * 86400e6 + 86399999999 END AS ts_us,
    CASE
      WHEN kind IN ('bar', 'volume') THEN day * 86400e6 + 75600e6
      WHEN kind = 'fundamental' THEN (day + 25 + CAST(hash($seed, 'lag', series_idx, k) % 65 AS INTEGER)) * 86400e6 + 79200e6
      ELSE (day + CASE frequency WHEN 'W' THEN 5 WHEN 'M' THEN 15 WHEN 'Q' THEN 30 ELSE 90 END) * 86400e6 + 48600e6
    END AS available_at_us,
    CASE WHEN kind = 'volume' THEN round(exp(13 + z)) ELSE round(base * exp(cum / 1e6), 6) END AS value,
    $key_offset + CASE kind WHEN 'macro' THEN 1 WHEN 'fundamental' THEN 2 ELSE 0 END AS basis_key,
    $key_offset + CASE kind WHEN 'macro' THEN 1 WHEN 'fundamental' THEN 3 ELSE 0 END AS ref_key,
    $seq_offset + (series_idx * 65536.0 + k) * 2 AS stage_seq
  FROM dated
),
final AS (
  SELECT * FROM renamed
)
SELECT * FROM final
