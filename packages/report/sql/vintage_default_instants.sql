-- Default as-of instants for the vintage view of one series: the 25/50/75 % points of the instants at which
-- its revisions were published (of all its publication instants when it has no revisions).
-- grain: instant
WITH ranked AS (
  SELECT epoch_ms(available_at)::DOUBLE AS instant,
         row_number() OVER (PARTITION BY "timestamp" ORDER BY available_at) AS k
  FROM in_observations
  WHERE series_id = $series
),
revised AS (SELECT count(*) AS n FROM ranked WHERE k > 1),
pool AS (
  SELECT instant FROM ranked, revised WHERE k > 1 OR revised.n = 0
),
q AS (SELECT quantile_disc(instant, [0.25, 0.5, 0.75]) AS qs FROM pool)
SELECT DISTINCT unnest(qs) AS instant FROM q
ORDER BY instant
