import { GarchBaseline, type GarchBaselineOptions } from '@asof/baselines';
import { fittedBaselineForecaster } from './fitted-baseline-forecaster.ts';
import type { PathForecaster } from './run-path-forecaster.ts';

/**
 * The GARCH(1,1) baseline through the look-ahead guard: the origin's input window (originWindow) goes to
 * @asof/baselines' GarchBaseline — a zero-mean GARCH(1,1) on the window's one-step log returns (changes for
 * a series that is not positive), refit every `refitEvery` origins. Point ŷ_{o+k} = y_o; quantiles
 * y_o·exp(z_τ·√V_k), V_k the summed variance forecast of the k + u steps from y_o to the target. One
 * forecaster per run, tasks in the split's order.
 */
export function garchForecaster(options: GarchBaselineOptions = {}): PathForecaster {
  return fittedBaselineForecaster(new GarchBaseline(options));
}
