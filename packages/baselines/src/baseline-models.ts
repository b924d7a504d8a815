/** The point baselines: paths from the origin's values alone (random walk, drift, seasonal naive). */
export const POINT_BASELINE_MODELS = ['random_walk', 'drift', 'seasonal_naive'] as const;
export type PointBaselineModel = (typeof POINT_BASELINE_MODELS)[number];
/**
 * The fitted baselines: ARIMA (auto.arima) and GARCH(1,1), per series and origin from the input window, with
 * quantiles q0.05…q0.95 (docs/decisions/0013). Their parameters are re-estimated every `refitEvery` origins
 * of a series, counted in ascending origin order.
 */
export const FITTED_BASELINE_MODELS = ['arima', 'garch'] as const;
export type FittedBaselineModel = (typeof FITTED_BASELINE_MODELS)[number];
/** Every baseline the scorer computes itself and `asof baselines` writes; the names are reserved. */
export const BASELINE_MODELS = [...POINT_BASELINE_MODELS, ...FITTED_BASELINE_MODELS] as const;
export type BaselineModel = (typeof BASELINE_MODELS)[number];
export const RANDOM_WALK = 'random_walk';

/** Whether a baseline is fitted (ARIMA, GARCH: paths with quantiles) rather than a point baseline. */
export function isFittedBaseline(kind: string): kind is FittedBaselineModel {
  return kind === 'arima' || kind === 'garch';
}
