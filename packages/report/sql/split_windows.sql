-- Origins per window (T1/T2/T3, or none without a model cutoff) and frequency: counts, series, pending
-- origins and target steps, and the span of origins and of target_known_at.
-- grain: ("window", frequency)
SELECT coalesce("window", 'none') AS "window", frequency,
       count(*)::INTEGER AS origins,
       count(DISTINCT series_id)::INTEGER AS series,
       (count(*) FILTER (WHERE target_known_at IS NULL))::INTEGER AS pending_origins,
       sum(horizon_steps - n_target_steps_known)::INTEGER AS pending_steps,
       sum(horizon_steps)::INTEGER AS target_steps,
       epoch_ms(min(origin))::DOUBLE AS first_origin,
       epoch_ms(max(origin))::DOUBLE AS last_origin,
       epoch_ms(min(target_known_at))::DOUBLE AS first_known,
       epoch_ms(max(target_known_at))::DOUBLE AS last_known
FROM in_origins
GROUP BY ALL
ORDER BY "window", frequency
