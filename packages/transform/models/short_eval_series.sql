-- short_eval_series: series of an evaluated unit, with the unit's minimum lookback before eval_start, that
-- reach eval_start but hold less than one full horizon after it (origin + prediction_length steps), so
-- series.sql does not make them eval targets: no origin of theirs could ever be scored. The build warns
-- with their count (e.g. vega:sp500:close: its first origin on or after 2020-01-01 has 73 of 260 target steps).
-- A series whose entity left the universe during the evaluation is an eval target all the same (series.sql)
-- and is not listed.
-- grain: series_id
-- invariants: none of these is an eval target; 1 <= n_from_eval_start <= prediction_length.
WITH source AS (
  SELECT s.series_id, s.frequency, s.eval_target, st.n_before, st.n_from_eval_start,
         z.minimum_lookback, z.prediction_length
  FROM series AS s
  JOIN series_stats AS st USING (series_id)
  JOIN registry_units AS u
    ON u.scope = s.scope AND u.category = s.category AND u.detail_category = s.detail_category AND u.frequency = s.frequency
  JOIN registry_horizons AS z ON z.frequency = s.frequency
  WHERE u.eval_target
),
final AS (
  SELECT series_id, frequency, n_from_eval_start, prediction_length
  FROM source
  WHERE NOT eval_target AND n_before >= minimum_lookback
    AND n_from_eval_start >= 1 AND n_from_eval_start < 1 + prediction_length
)
SELECT * FROM final
