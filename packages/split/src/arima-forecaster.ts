import { ArimaBaseline, type RefitOptions } from '@asof/baselines';
import { fittedBaselineForecaster } from './fitted-baseline-forecaster.ts';
import type { PathForecaster } from './run-path-forecaster.ts';

/**
 * The ARIMA baseline through the look-ahead guard: at each origin the input window public there
 * (originWindow: the scorer's history_tail and history_tail_back) goes to @asof/baselines' ArimaBaseline
 * (auto.arima order selection, refit every `refitEvery` origins of a series, re-filtered in between; log
 * levels for a positive window; quantiles q0.05…q0.95). One forecaster holds the refit cache of a run, so
 * make a new one per run and give it the tasks in the split's order (per series, ascending origins).
 */
export function arimaForecaster(options: RefitOptions = {}): PathForecaster {
  return fittedBaselineForecaster(new ArimaBaseline(options));
}
