import { InputError } from '@asof/schema';
import { checkArrays, type NumericArray } from './check-arrays.ts';

/** Costs per unit of traded position (a full long → flat trade is 1, long → short 2), as return fractions. */
export interface TradingCosts {
  /** Half the quoted bid–ask spread. */
  halfSpread: number;
  /** Slippage beyond the quote. */
  slippage: number;
  /** Fee (commission, exchange fee). */
  fee: number;
}

/**
 * The defaults, stated: half spread 5 bp, slippage 5 bp, fee 1 bp (11 bp per unit traded). Liquid large-cap
 * equity orders of modest size; wider for small caps, credit or emerging markets, narrower for index futures.
 */
export const DEFAULT_TRADING_COSTS: TradingCosts = { halfSpread: 0.0005, slippage: 0.0005, fee: 0.0001 };

export interface CostDiagnostic {
  /** Mean net return per origin (position × realised return − costs × turnover). */
  netReturn: number;
  /** Mean gross return per origin, before costs. */
  grossReturn: number;
  /** Share of the non-flat positions whose sign matches the realised return's (NaN with no position). */
  hitRate: number;
  /** Mean position traded per origin (Σ|Δposition| / origins), the close of the last position included. */
  turnover: number;
  /** Origins with a long or short position. */
  positions: number;
  origins: number;
}

/**
 * Tycheon's cost-aware diagnostic (methodology, "The cost-aware diagnostic") on one series' origins in time
 * order: at each origin a position sign(median forecast) ∈ {−1, 0, +1} is held for one horizon and earns
 * position × realised return; every change of position pays (half spread + slippage + fee) × |Δposition|.
 * When the next origin starts exactly where the horizon ends (`carries[i]`: origin i + 1 is H steps after
 * origin i) the position rolls into the next one and only the difference is traded; otherwise it is closed
 * at the horizon end and the next one opened from flat. The last position is closed. A diagnostic of
 * whether an edge survives frictions, not a trading system.
 */
export function costDiagnostic(
  medianForecast: NumericArray,
  realized: NumericArray,
  carries: ArrayLike<boolean | number>,
  costs: TradingCosts = DEFAULT_TRADING_COSTS,
): CostDiagnostic {
  const n = checkArrays('costDiagnostic', { medianForecast, realized });
  const c = costs.halfSpread + costs.slippage + costs.fee;
  if (!(c >= 0) || !Number.isFinite(c)) {
    throw new InputError(
      'METRIC_BAD_PARAMETER',
      `costDiagnostic: costs must be finite and ≥ 0, got half spread ${costs.halfSpread}, slippage ${costs.slippage}, fee ${costs.fee}`,
      { context: { ...costs } },
    );
  }
  let held = 0;
  let traded = 0;
  let gross = 0;
  let positions = 0;
  let hits = 0;
  for (let i = 0; i < n; i++) {
    const f = medianForecast[i];
    const position = f > 0 ? 1 : f < 0 ? -1 : 0;
    traded += Math.abs(position - held);
    gross += position * realized[i];
    if (position !== 0) {
      positions++;
      if (Math.sign(realized[i]) === position) hits++;
    }
    held = position;
    if (!(i + 1 < n && carries[i])) {
      traded += Math.abs(held);
      held = 0;
    }
  }
  return {
    netReturn: n ? (gross - c * traded) / n : Number.NaN,
    grossReturn: n ? gross / n : Number.NaN,
    hitRate: positions ? hits / positions : Number.NaN,
    turnover: n ? traded / n : Number.NaN,
    positions,
    origins: n,
  };
}
