import { kalmanFilter, kalmanForecast, makeStateModel } from './arima-state-space.ts';
import { type ArimaFit, ArimaFitError } from './fit-arima.ts';

export interface ArimaForecast {
  /** Point forecasts (the Gaussian mean) for steps 1..h after the last value. */
  mean: Float64Array;
  /** Their standard errors: √(σ²·Z'P_{n+k}Z). */
  se: Float64Array;
}

/**
 * forecast::forecast.Arima without Box–Cox: the Kalman forecast of the filtered state plus the constant
 * (μ, or c·(n + k) for a drift), with standard errors from the fit's σ². A constant series forecasts its
 * value with zero standard error.
 */
export function forecastArima(fit: ArimaFit, h: number): ArimaForecast {
  if (fit.constantSeries !== undefined) {
    return { mean: new Float64Array(h).fill(fit.constantSeries), se: new Float64Array(h) };
  }
  if (!fit.state) throw new ArimaFitError('forecastArima: the fit has no filtered state (a CSS search fit)');
  const { mean, variance } = kalmanForecast(fit.state, h);
  const se = new Float64Array(h);
  for (let k = 0; k < h; k++) {
    if (fit.constant === 'mean') mean[k] += fit.constantCoef;
    else if (fit.constant === 'drift') mean[k] += fit.constantCoef * (fit.n + k + 1);
    se[k] = Math.sqrt(variance[k] * fit.sigma2);
  }
  return { mean, se };
}

/**
 * The same model (order, coefficients, constant) run over a new stretch of data x (NaN = missing): the
 * Kalman filter from the stationary start, so forecasts continue from x's last value; σ² is re-estimated
 * from x's innovations as the fit estimates it (Σv²/(n* − k + 1)), the drift regressor restarts at 1.
 * This is what a baseline does between refits: no optimisation, only filtering.
 */
export function refilterArima(fit: ArimaFit, x: ArrayLike<number>): ArimaFit {
  if (fit.constantSeries !== undefined) {
    return { ...fit, constantSeries: x[x.length - 1], n: x.length };
  }
  const { d } = fit.order;
  const model = makeStateModel(Float64Array.from(fit.ar), Float64Array.from(fit.ma), d);
  if (!model) throw new ArimaFitError('refilterArima: the AR part is not stationary');
  const n = x.length;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    y[i] =
      fit.constant === 'mean'
        ? x[i] - fit.constantCoef
        : fit.constant === 'drift'
          ? x[i] - fit.constantCoef * (i + 1)
          : x[i];
  }
  const res = kalmanFilter(model, y, true);
  let observed = 0;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(x[i])) continue;
    observed++;
    ss += res.residuals![i] ** 2;
  }
  const k = fit.parameters;
  const nstar = observed - d;
  return {
    ...fit,
    state: model,
    n,
    nobs: nstar,
    sigma2: ss / (nstar - k + 1),
    sigma2Fit: res.ssq / nstar,
  };
}
