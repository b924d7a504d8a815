import { describe, expect, it } from 'vitest';
import { costDiagnostic, DEFAULT_TRADING_COSTS } from './cost-diagnostic.ts';

describe('costDiagnostic (Tycheon: sign of the median forecast for one horizon, costs on turnover)', () => {
  it('matches a hand computation', () => {
    // positions sign(f) = [+1, −1, 0, +1]; origins 0→1→2 are back to back, 2→3 is not.
    // traded: +1 (open), 2 (long → short), 1 (short → flat), 0 (flat closed), 1 (open), 1 (last closed) = 6
    // gross = 0.05 − 0.02 + 0 + 0.04 = 0.07; c = 5 + 5 + 1 bp = 0.0011
    const d = costDiagnostic([0.1, -0.2, 0, 0.3], [0.05, 0.02, -0.01, 0.04], [1, 1, 0, 0]);
    expect(d.turnover).toBeCloseTo(6 / 4, 15);
    expect(d.grossReturn).toBeCloseTo(0.07 / 4, 15);
    expect(d.netReturn).toBeCloseTo((0.07 - 0.0011 * 6) / 4, 15);
    expect(d.hitRate).toBeCloseTo(2 / 3, 15);
    expect(d.positions).toBe(3);
    expect(d.origins).toBe(4);
  });

  it('closes every position when origins are not back to back, and uses the costs given', () => {
    const costs = { halfSpread: 0.001, slippage: 0.002, fee: 0 };
    const d = costDiagnostic([1, 1], [0.01, 0.01], [0, 0], costs);
    // open, close, open, close: 4 units at 30 bp
    expect(d.turnover).toBe(2);
    expect(d.netReturn).toBeCloseTo((0.02 - 0.003 * 4) / 2, 15);
    const held = costDiagnostic([1, 1], [0.01, 0.01], [1, 0], costs);
    expect(held.turnover).toBe(1);
  });

  it('has no position, no cost and no hit rate for the random walk (median 0)', () => {
    const d = costDiagnostic([0, 0, 0], [0.1, -0.1, 0.2], [1, 1, 1]);
    expect(d.netReturn).toBe(0);
    expect(d.turnover).toBe(0);
    expect(d.hitRate).toBeNaN();
    expect(DEFAULT_TRADING_COSTS).toEqual({ halfSpread: 0.0005, slippage: 0.0005, fee: 0.0001 });
    expect(() => costDiagnostic([1], [1], [0], { halfSpread: -1, slippage: 0, fee: 0 })).toThrow(/≥ 0/);
  });
});
