-- One series as of an instant: per timestamp the row with the greatest available_at <= the instant;
-- a withdrawal (value NULL) current at that instant leaves the timestamp out.
-- grain: t (the timestamp; one series)
SELECT t, value FROM (
  SELECT epoch_ms("timestamp")::DOUBLE AS t, arg_max_null(value, available_at) AS value
  FROM in_observations
  WHERE series_id = $series AND available_at <= $as_of::TIMESTAMPTZ
  GROUP BY "timestamp"
)
WHERE value IS NOT NULL
ORDER BY t
