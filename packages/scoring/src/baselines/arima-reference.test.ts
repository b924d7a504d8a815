import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { autoArima } from './auto-arima.ts';
import { fitArima } from './fit-arima.ts';
import { forecastArima, refilterArima } from './forecast-arima.ts';
import { kpssDifferences } from './kpss-differences.ts';
import { minimizeBfgs, numericHessian } from './minimize-bfgs.ts';

// Produced once in R 4.2.2 / forecast 8.20 by reference/arima/make-reference.R (series simulated there with
// set.seed(20240611) and stored with the results). Tolerances, stated once:
//  - orders, constant (mean / drift / none) and ndiffs: exact for every series;
//  - the stepwise search path: the same models in the same order, each IC within 1e-6 relative of the
//    7-significant-digit value R's trace prints (Inf where R rejects the model);
//  - coefficients: 1e-6 relative or absolute (an AR coefficient of 0.0094 on a flat likelihood differs by
//    4e-8); σ², log-likelihood, AICc: 1e-6 relative;
//  - point forecasts and 80/95% bounds: 1e-6 relative. Achieved: ≤ 8.3e-8 over the 36 fits, because the
//    port follows R's optimiser (optim BFGS, numerical gradient) step for step.
const reference = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../reference/arima/arima-reference.json', import.meta.url)), 'utf8'),
) as Reference;

interface Fitted {
  name: string;
  x: (number | null)[];
  order: { p: number; d: number; q: number };
  constant: 'mean' | 'drift' | 'none';
  ar: number[] | number;
  ma: number[] | number;
  constant_coef: number | null;
  sigma2: number;
  loglik: number | null;
  aicc: number | null;
  mean: number[];
  lower80: number[];
  upper80: number[];
  lower95: number[];
  upper95: number[];
}
interface Reference {
  horizon: number;
  auto: (Fitted & {
    ndiffs: number;
    search: { p: number; d: number; q: number; constant: boolean; ic: number | 'Inf' }[];
  })[];
  fixed: (Fitted & { drift: boolean; include_mean: boolean })[];
  refilter: {
    name: string;
    x: number[];
    y: number[];
    drift: boolean;
    order: { p: number; d: number; q: number };
    ar: number[] | number;
    ma: number[] | number;
    constant_coef: number | null;
    mean: number[];
    variance_factor: number[];
  }[];
  optimizer: {
    name: string;
    start: number[];
    parscale: number[] | Record<string, never>;
    gradient: boolean;
    maxit?: number;
    par: number[];
    value: number;
    fn_count: number;
    gr_count: number;
    convergence: number;
  }[];
  hessian: { at: number[]; parscale: number[]; plain: number[][]; scaled: number[][] };
}

const series = (x: (number | null)[]) => Float64Array.from(x, (v) => (v === null ? Number.NaN : v));
const list = (v: number[] | number) => (Array.isArray(v) ? v : [v]);
const z80 = 1.2815515655446004;
const z95 = 1.959963984540054;

function expectClose(actual: number, expected: number, rel = 1e-6, abs = 1e-8): void {
  const tol = Math.max(abs, rel * Math.abs(expected));
  if (!(Math.abs(actual - expected) <= tol)) {
    throw new Error(`expected ${expected}, got ${actual} (|diff| ${Math.abs(actual - expected)} > ${tol})`);
  }
}

function expectPaths(mean: Float64Array, se: Float64Array, ref: Fitted): void {
  for (let k = 0; k < ref.mean.length; k++) {
    expectClose(mean[k], ref.mean[k]);
    expectClose(mean[k] - z80 * se[k], ref.lower80[k]);
    expectClose(mean[k] + z80 * se[k], ref.upper80[k]);
    expectClose(mean[k] - z95 * se[k], ref.lower95[k]);
    expectClose(mean[k] + z95 * se[k], ref.upper95[k]);
  }
}

describe('autoArima vs forecast::auto.arima', () => {
  it('covers at least 20 series', () => {
    expect(reference.auto.length).toBeGreaterThanOrEqual(20);
  });

  for (const c of reference.auto) {
    it(`${c.name}: same d, search path, order, coefficients and forecasts`, () => {
      const x = series(c.x);
      expect(kpssDifferences(x)).toBe(c.ndiffs);
      const { fit, searched } = autoArima(x);
      expect({ ...fit.order, constant: fit.constant }).toEqual({ ...c.order, constant: c.constant });
      expect(searched.map((s) => [s.order.p, s.order.d, s.order.q, s.constant])).toEqual(
        c.search.map((s) => [s.p, s.d, s.q, s.constant]),
      );
      searched.forEach((s, i) => {
        const ic = c.search[i].ic;
        if (ic === 'Inf') expect(s.ic).toBe(Number.POSITIVE_INFINITY);
        else expectClose(s.ic, ic, 1e-6, 1e-4);
      });
      list(c.ar).forEach((v, i) => {
        expectClose(fit.ar[i], v);
      });
      list(c.ma).forEach((v, i) => {
        expectClose(fit.ma[i], v);
      });
      expect(fit.ar.length).toBe(list(c.ar).length);
      expect(fit.ma.length).toBe(list(c.ma).length);
      if (c.constant_coef !== null) expectClose(fit.constantCoef, c.constant_coef);
      if (fit.constantSeries === undefined) expectClose(fit.sigma2, c.sigma2);
      if (c.aicc !== null) expectClose(fit.aicc, c.aicc);
      if (c.loglik !== null) expectClose(fit.loglik, c.loglik);
      const fc = forecastArima(fit, reference.horizon);
      expectPaths(fc.mean, fc.se, c);
    });
  }
});

describe('fitArima vs forecast::Arima at fixed orders', () => {
  for (const c of reference.fixed) {
    it(`${c.name} ARIMA(${c.order.p},${c.order.d},${c.order.q})${c.drift ? ' with drift' : ''}`, () => {
      const fit = fitArima(series(c.x), c.order, {
        constant: c.drift || (c.order.d === 0 && c.include_mean),
      });
      expect(fit.constant).toBe(c.constant);
      list(c.ar).forEach((v, i) => {
        expectClose(fit.ar[i], v, 1e-6, 1e-6);
      });
      list(c.ma).forEach((v, i) => {
        expectClose(fit.ma[i], v, 1e-6, 1e-6);
      });
      if (c.constant_coef !== null) expectClose(fit.constantCoef, c.constant_coef);
      expectClose(fit.sigma2, c.sigma2);
      expectClose(fit.loglik, c.loglik!);
      expectClose(fit.aicc, c.aicc!);
      const fc = forecastArima(fit, reference.horizon);
      expectPaths(fc.mean, fc.se, c);
    });
  }
});

describe('refilterArima vs forecast::Arima with every coefficient fixed', () => {
  for (const c of reference.refilter) {
    it(`${c.name}: same coefficients over a later stretch forecast as R's filtered state`, () => {
      const fit = fitArima(Float64Array.from(c.x), c.order, { constant: c.drift || c.order.d === 0 });
      list(c.ar).forEach((v, i) => {
        expectClose(fit.ar[i], v);
      });
      list(c.ma).forEach((v, i) => {
        expectClose(fit.ma[i], v);
      });
      if (c.constant_coef !== null) expectClose(fit.constantCoef, c.constant_coef);
      const re = refilterArima(fit, Float64Array.from(c.y));
      const fc = forecastArima(re, reference.horizon);
      for (let k = 0; k < c.mean.length; k++) {
        expectClose(fc.mean[k], c.mean[k]);
        expectClose((fc.se[k] * fc.se[k]) / re.sigma2, c.variance_factor[k]);
      }
    });
  }
});

describe('minimizeBfgs vs R optim(method = "BFGS")', () => {
  const fr = (x: Float64Array) => 100 * (x[1] - x[0] ** 2) ** 2 + (1 - x[0]) ** 2;
  const grr = (x: Float64Array, g: Float64Array) => {
    g[0] = -400 * x[0] * (x[1] - x[0] ** 2) - 2 * (1 - x[0]);
    g[1] = 200 * (x[1] - x[0] ** 2);
  };
  for (const c of reference.optimizer) {
    it(`Rosenbrock, ${c.name}: same point, value and evaluation counts`, () => {
      const res = minimizeBfgs(fr, c.start, {
        parscale: Array.isArray(c.parscale) ? c.parscale : undefined,
        gradient: c.gradient ? grr : undefined,
        maxit: c.maxit,
      });
      expect(res.fnCount).toBe(c.fn_count);
      expect(res.grCount).toBe(c.gr_count);
      expect(res.convergence).toBe(c.convergence);
      res.par.forEach((v, i) => {
        expectClose(v, c.par[i], 1e-12, 1e-15);
      });
      expectClose(res.value, c.value, 1e-10, 1e-20);
    });
  }
  it("numericHessian equals R's optimHess, with and without parscale", () => {
    const { at, parscale, plain, scaled } = reference.hessian;
    const H = numericHessian(fr, at);
    const Hs = numericHessian(fr, at, parscale);
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 2; j++) {
        expectClose(H[i * 2 + j], plain[i][j], 1e-12);
        expectClose(Hs[i * 2 + j], scaled[i][j], 1e-12);
      }
    }
  });
});
