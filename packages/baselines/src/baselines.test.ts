import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normalQuantile } from '@asof/stats';
import { describe, expect, it } from 'vitest';
import { ArimaBaseline, RefitSchedule } from './arima-baseline.ts';
import { BASELINE_QUANTILE_LEVELS, placeOnGrid, quantileColumnName } from './baseline-quantiles.ts';
import { fitGarch } from './fit-garch.ts';
import { GarchBaseline } from './garch-baseline.ts';
import { gaussian, mulberry32 } from './mulberry32.ts';

const reference = JSON.parse(
  readFileSync(fileURLToPath(new URL('../reference/arima/arima-reference.json', import.meta.url)), 'utf8'),
) as { auto: { name: string; x: number[]; mean: number[]; lower80: number[]; upper80: number[] }[] };

describe('baseline quantile grid', () => {
  // That the scorer reads these names back is checked in @asof/scoring (align-forecasts.test.ts).
  it('is 0.05…0.95 and named q<level>', () => {
    expect(BASELINE_QUANTILE_LEVELS.length).toBe(19);
    expect(quantileColumnName(0.1)).toBe('q0.1');
    expect(quantileColumnName(0.05)).toBe('q0.05');
  });

  it('places a lagged window with a gap on the grid', () => {
    const { values, u } = placeOnGrid([1, 2, 4], [4, 3, 1]);
    expect(u).toBe(1);
    expect(Array.from(values)).toEqual([1, 2, Number.NaN, 4]);
  });
});

describe('RefitSchedule', () => {
  it('refits at the 1st, (K+1)-th, … origin of a series, never reusing a later fit', () => {
    const s = new RefitSchedule<string>(3);
    const refits: number[] = [];
    for (let o = 1; o <= 7; o++) {
      if (!s.reuse('a', o, true)) {
        refits.push(o);
        s.store('a', o, true, `fit@${o}`);
      }
    }
    expect(refits).toEqual([1, 4, 7]);
    expect(s.reuse('a', 5, true)).toBeNull(); // earlier than the fit at 7
    expect(s.reuse('b', 1, true)).toBeNull();
    expect(() => new RefitSchedule(0)).toThrow(/whole number/);
  });
});

describe('ArimaBaseline', () => {
  it('on a positive series is auto.arima in log levels, quantiles exp(mean ± z·se)', () => {
    const c = reference.auto.find((a) => a.name === 'log_price_400')!;
    const prices = c.x.map(Math.exp);
    const b = new ArimaBaseline();
    const path = b.pathAt('s', 1, prices, null, 12)!;
    const K = path.levels.length;
    const i10 = path.levels.indexOf(0.1);
    const i90 = path.levels.indexOf(0.9);
    for (let k = 0; k < 12; k++) {
      expect(Math.abs(path.point[k] / Math.exp(c.mean[k]) - 1)).toBeLessThan(1e-6);
      expect(Math.abs(path.quantiles[k * K + i10] / Math.exp(c.lower80[k]) - 1)).toBeLessThan(1e-6);
      expect(Math.abs(path.quantiles[k * K + i90] / Math.exp(c.upper80[k]) - 1)).toBeLessThan(1e-6);
      for (let j = 1; j < K; j++)
        expect(path.quantiles[k * K + j]).toBeGreaterThan(path.quantiles[k * K + j - 1]);
    }
    expect(path.refit).toBe(true);
  });

  it('with a publication lag u takes the steps u+1…u+H, and reuses its fit until the K-th origin', () => {
    const c = reference.auto.find((a) => a.name === 'ar2_120')!;
    const b = new ArimaBaseline({ refitEvery: 2 });
    const back = c.x.map((_, i) => c.x.length - i); // last value one step before the origin (u = 1)
    const lagged = b.pathAt('s', 1, c.x, back, 5)!;
    const direct = new ArimaBaseline().pathAt('t', 1, c.x, null, 6)!;
    for (let k = 0; k < 5; k++) expect(lagged.point[k]).toBeCloseTo(direct.point[k + 1], 10);
    const again = b.pathAt('s', 2, c.x.slice(1), back.slice(1), 5)!;
    expect(again.refit).toBe(false);
    expect(b.pathAt('s', 3, c.x, back, 5)!.refit).toBe(true);
  });

  it('gives nothing for fewer than two values', () => {
    expect(new ArimaBaseline().pathAt('s', 1, [5], null, 3)).toBeNull();
  });
});

describe('GarchBaseline', () => {
  const prices: number[] = [100];
  let seed = 1;
  for (let i = 0; i < 400; i++) {
    seed = (seed * 16807) % 2147483647;
    const u = seed / 2147483647;
    const vol = i > 300 ? 0.03 : 0.01;
    prices.push(prices[prices.length - 1] * Math.exp(vol * (u - 0.5) * 3.46));
  }

  it('forecasts y_o with Gaussian log-return quantiles whose implied variance is the GARCH path sum', () => {
    const b = new GarchBaseline();
    const path = b.pathAt('s', 1, prices, null, 5)!;
    const y0 = prices[prices.length - 1];
    const K = path.levels.length;
    const i25 = path.levels.indexOf(0.25);
    const i75 = path.levels.indexOf(0.75);
    let last = 0;
    for (let k = 0; k < 5; k++) {
      expect(path.point[k]).toBe(y0);
      const sd =
        (Math.log(path.quantiles[k * K + i75] / y0) - Math.log(path.quantiles[k * K + i25] / y0)) /
        (2 * normalQuantile(0.75));
      expect(sd).toBeGreaterThan(last);
      last = sd;
      expect(Math.abs(Math.log(path.quantiles[k * K + path.levels.indexOf(0.5)] / y0))).toBeLessThan(1e-15);
    }
    expect(path.fallback).toBe(false);
    // the window ends in the high-volatility regime: the one-step sd is nearer 3% than 1%
    const one =
      (Math.log(path.quantiles[i75] / y0) - Math.log(path.quantiles[i25] / y0)) / (2 * normalQuantile(0.75));
    expect(one).toBeGreaterThan(0.015);
  });

  it('falls back to the mean squared return on a short window, and moves to levels for a non-positive series', () => {
    const short = new GarchBaseline().pathAt('s', 1, prices.slice(0, 10), null, 2)!;
    expect(short.fallback).toBe(true);
    const spread = prices.map((p) => p - 100);
    const path = new GarchBaseline().pathAt('s', 1, spread, null, 1)!;
    const K = path.levels.length;
    const y0 = spread[spread.length - 1];
    expect(path.quantiles[path.levels.indexOf(0.5)]).toBeCloseTo(y0, 12);
    expect(path.quantiles[K - 1] - y0).toBeCloseTo(y0 - path.quantiles[0], 10);
  });
});

describe('fitted baselines far out (the default split forecasts 260 business days)', () => {
  it('GARCH forecasts a non-stationary fit (α + β ≥ 1) with the persistence capped at 1 (IGARCH)', () => {
    // Volatility growing 2% a step: the ML fit has α + β ≈ 1.2, whose 260-step variance would be ~1e20×.
    const normal = gaussian(mulberry32(3));
    const prices = [100];
    for (let t = 0; t < 259; t++) prices.push(prices[t] * Math.exp(0.01 * Math.exp(0.02 * t) * normal()));
    const returns = prices.slice(1).map((p, i) => Math.log(p / prices[i]));
    const fit = fitGarch(returns);
    expect(fit.alpha + fit.beta).toBeGreaterThan(1.1);
    const path = new GarchBaseline().pathAt('x', 1, prices, null, 260)!;
    expect(path.fallback).toBe(false);
    const K = path.levels.length;
    const y0 = prices[prices.length - 1];
    // V_260 = Σ_{k=1..260} (h_{n+1} + (k − 1)ω) = 260·h_{n+1} + ω·260·259/2.
    const V = 260 * fit.nextVariance + (fit.omega * 260 * 259) / 2;
    const top = path.quantiles[259 * K + K - 1];
    expect(Number.isFinite(top)).toBe(true);
    expect(Math.log(top / y0)).toBeCloseTo(normalQuantile(0.95) * Math.sqrt(V), 8);
  });

  it('ARIMA forecasts stay finite and positive in log space far out', () => {
    const normal = gaussian(mulberry32(5));
    const prices = [100];
    for (let t = 0; t < 259; t++) prices.push(prices[t] * Math.exp(0.0005 * t * 0.01 + 0.02 * normal()));
    const path = new ArimaBaseline().pathAt('x', 1, prices, null, 260)!;
    for (const v of [...path.point, ...path.quantiles]) {
      expect(Number.isFinite(v)).toBe(true);
      expect(v).toBeGreaterThan(0);
    }
  });
});

describe('RefitSchedule spacing', () => {
  const refits = (steps: number[], every: number, horizon: number) => {
    const s = new RefitSchedule<number>(every);
    const out: number[] = [];
    steps.forEach((step, i) => {
      if (s.reuse('x', i, true, step, horizon) === null) {
        s.store('x', i, true, i, step);
        out.push(step);
      }
    });
    return out;
  };

  it('refits every K origins when origins are a horizon or more apart (non_overlapping)', () => {
    const steps = Array.from({ length: 25 }, (_, i) => i * 12);
    expect(refits(steps, 10, 12)).toEqual([0, 120, 240]);
  });

  it('never refits within one horizon of steps of the last fit (origins on every step)', () => {
    const steps = Array.from({ length: 600 }, (_, i) => i);
    expect(refits(steps, 10, 260)).toEqual([0, 260, 520]);
    // Without grid steps the count alone decides, as before.
    const s = new RefitSchedule<number>(10);
    let n = 0;
    for (let i = 0; i < 30; i++) {
      if (s.reuse('x', i, true) === null) {
        s.store('x', i, true, i);
        n++;
      }
    }
    expect(n).toBe(3);
  });
});
