import { InputError } from '@asof/schema';
import { checkArrays, type NumericArray } from './check-arrays.ts';

/**
 * Tycheon "CRPS … for quantile-only models, a trapezoid integral of pinball loss over the quantile grid,
 * flagged with *": CRPS(F, y) = 2 ∫_0^1 ρ_τ(y − q_τ) dτ with ρ_τ(u) = u(τ − 𝕀[u < 0]), integrated by the
 * trapezoid rule over the given levels τ_1 < … < τ_K only. The tails below τ_1 and above τ_K are ignored,
 * so the value is slightly low; it is returned with `approximate: true` so it is never mixed with exact
 * (sample-based) CRPS in one comparison. Lower is better.
 */
export function crpsQuantiles(
  levels: NumericArray,
  quantiles: NumericArray,
  outcome: number,
): { value: number; approximate: true } {
  const k = checkArrays('crpsQuantiles', { levels, quantiles });
  checkArrays('crpsQuantiles', { outcome: [outcome] });
  if (k < 2) {
    throw new InputError(
      'METRIC_TOO_FEW_QUANTILES',
      `crpsQuantiles: ${k} quantile level(s), expected at least 2 to integrate over.`,
      { context: { levels: k } },
    );
  }
  for (let i = 0; i < k; i++) {
    const t = levels[i];
    if (!(t > 0 && t < 1) || (i > 0 && !(t > levels[i - 1]))) {
      throw new InputError(
        'METRIC_BAD_QUANTILE_GRID',
        `crpsQuantiles: levels[${i}] = ${t}; levels must be strictly increasing inside (0, 1), e.g. 0.05…0.95.`,
        { context: { index: i, value: t } },
      );
    }
    if (i > 0 && quantiles[i] < quantiles[i - 1]) {
      throw new InputError(
        'METRIC_CROSSING_QUANTILES',
        `crpsQuantiles: quantile at level ${t} (${quantiles[i]}) is below the one at ${levels[i - 1]} ` +
          `(${quantiles[i - 1]}); quantiles must be non-decreasing (sort or rearrange them before scoring).`,
        { context: { index: i, value: quantiles[i], previous: quantiles[i - 1] } },
      );
    }
  }
  let integral = 0;
  let prev = pinball(levels[0], quantiles[0], outcome);
  for (let i = 1; i < k; i++) {
    const cur = pinball(levels[i], quantiles[i], outcome);
    integral += ((levels[i] - levels[i - 1]) * (prev + cur)) / 2;
    prev = cur;
  }
  return { value: 2 * integral, approximate: true };
}

function pinball(tau: number, q: number, y: number): number {
  const u = y - q;
  return u * (tau - (u < 0 ? 1 : 0));
}
