import type { NumericArray } from './check-arrays.ts';
import { mse } from './mse.ts';

/** Root mean squared error √MSE of the median forecast (Tycheon "Metrics" table). Lower is better. */
export function rmse(forecast: NumericArray, actual: NumericArray): number {
  return Math.sqrt(mse(forecast, actual));
}
