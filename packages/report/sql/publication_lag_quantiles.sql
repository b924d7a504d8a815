-- Publication lag quantiles (days) of first releases per source and basis.
-- grain: (source, basis)
SELECT source, basis, count(*)::DOUBLE AS releases,
       (quantile_disc(lag_s, [0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0]))::DOUBLE[] AS q_s
FROM report_first_releases
GROUP BY source, basis
ORDER BY source, basis
