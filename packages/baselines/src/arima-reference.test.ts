import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { kpssDifferences, minimizeBfgs, numericHessian } from '@asof/stats';
import { describe, expect, it } from 'vitest';
import { ArimaBaseline } from './arima-baseline.ts';
import { autoArima } from './auto-arima.ts';
import { fitArima } from './fit-arima.ts';
import { forecastArima, refilterArima } from './forecast-arima.ts';

// Produced in R 4.2.2 / forecast 8.20 (x86-64, reference BLAS and LAPACK) by
// reference/arima/make-reference.R from 310 series: 32 simulated there (set.seed(20240611), stored with the
// results) and 278 of the embedded default universe (universe-inputs.json, written by make-inputs.ts): 51
// as-of histories (the audit's long-term-debt case, short quarterly EDGAR histories, monthly histories,
// interior gaps) and 227 production windows, the input windows the baseline fits at the default split's
// origins (4 quarterly, 12 monthly or 260 business-day values). Tolerances:
//  - orders, constant (mean / drift / none), ndiffs and the stepwise search path (the same models in the
//    same order, Inf where R rejects the model): exact for every series;
//  - simulated series: each searched IC within 1e-6 relative of the 7-significant-digit value R's trace
//    prints; coefficients 1e-6 relative or 1e-8 absolute (an AR coefficient of 0.0094 on a flat likelihood
//    differs by 4e-8); σ², log-likelihood, AICc, point forecasts and 80/95% bounds: 1e-6 relative.
//    Achieved: coefficients 2.5e-8 absolute, forecasts and bounds 2.2e-7 relative, ICs 4.8e-7, because the
//    port follows R's optimiser (optim BFGS, numerical gradient) step for step;
//  - universe series (short, flat likelihoods: BFGS stops within reltol = 1.5e-8 of the optimum, which
//    leaves a small coefficient free to ~1e-7) and the maxit = 1000 runs: coefficients 1e-5 relative or
//    1e-6 absolute, searched ICs 1e-5 relative, the rest as above. Achieved: coefficients 5.7e-7 absolute
//    (2.9e-6 with maxit = 1000), forecasts and bounds 7.3e-7 relative, ICs 1.2e-6;
//  - the issue-51 acceptance over all of them, counted in one test: orders equal, coefficients within 1e-4,
//    forecasts and bounds within 1e-4 relative, with any known mismatch listed by name and reason.
const referenceFile = (name: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../reference/arima/${name}`, import.meta.url)), 'utf8'));
const reference = referenceFile('arima-reference.json') as Reference;
// Series of the embedded default universe (make-inputs.ts): the reference names them, R fitted these doubles.
const universe = new Map(
  (referenceFile('universe-inputs.json') as { inputs: { name: string; x: (number | null)[] }[] }).inputs.map(
    (i) => [i.name, i.x],
  ),
);

interface Fitted {
  name: string;
  /** Absent for a universe series: its values are in universe-inputs.json under the same name. */
  x?: (number | null)[];
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
type SearchPath = { p: number; d: number; q: number; constant: boolean; ic: number | 'Inf' }[];
interface Reference {
  horizon: number;
  auto: (Fitted & { ndiffs: number; search: SearchPath; group?: string })[];
  /** auto.arima(x, optim.control = list(maxit = 1000)) on universe series. */
  optim_control: (Fitted & { maxit: number; search: SearchPath })[];
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
const seriesOf = (c: { name: string; x?: (number | null)[] }) => series(c.x ?? universe.get(c.name)!);
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

interface Tolerance {
  coefRel: number;
  coefAbs: number;
  icRel: number;
}
const SIMULATED: Tolerance = { coefRel: 1e-6, coefAbs: 1e-8, icRel: 1e-6 };
const UNIVERSE: Tolerance = { coefRel: 1e-5, coefAbs: 1e-6, icRel: 1e-5 };
/** The acceptance of issue 51: coefficients within 1e-4, forecasts and interval bounds 1e-4 relative. */
const ACCEPTANCE = 1e-4;

/** How far a fit is from R's: order equal, largest coefficient and forecast/bound differences. */
interface Agreement {
  order: boolean;
  coef: number;
  forecast: number;
}
function agreement(fit: ReturnType<typeof autoArima>['fit'], c: Fitted): Agreement {
  const order =
    fit.order.p === c.order.p &&
    fit.order.d === c.order.d &&
    fit.order.q === c.order.q &&
    fit.constant === c.constant;
  if (!order) return { order, coef: Number.POSITIVE_INFINITY, forecast: Number.POSITIVE_INFINITY };
  const diffs = [
    ...list(c.ar).map((v, i) => Math.abs(fit.ar[i] - v)),
    ...list(c.ma).map((v, i) => Math.abs(fit.ma[i] - v)),
    c.constant_coef === null ? 0 : Math.abs(fit.constantCoef - c.constant_coef),
  ];
  const coef = Math.max(0, ...diffs);
  const fc = forecastArima(fit, reference.horizon);
  let forecast = 0;
  const rel = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / Math.abs(b));
  for (let k = 0; k < c.mean.length; k++) {
    const m = fc.mean[k];
    const s = fc.se[k];
    forecast = Math.max(
      forecast,
      rel(m, c.mean[k]),
      rel(m - z80 * s, c.lower80[k]),
      rel(m + z80 * s, c.upper80[k]),
      rel(m - z95 * s, c.lower95[k]),
      rel(m + z95 * s, c.upper95[k]),
    );
  }
  return { order, coef, forecast };
}

/** The fit and search path against R's, at tolerance `tol` (see the header). */
function expectAuto(
  result: ReturnType<typeof autoArima>,
  c: Fitted & { search: SearchPath },
  tol: Tolerance,
): void {
  const { fit, searched } = result;
  expect({ ...fit.order, constant: fit.constant }).toEqual({ ...c.order, constant: c.constant });
  expect(searched.map((s) => [s.order.p, s.order.d, s.order.q, s.constant])).toEqual(
    c.search.map((s) => [s.p, s.d, s.q, s.constant]),
  );
  searched.forEach((s, i) => {
    const ic = c.search[i].ic;
    if (ic === 'Inf') expect(s.ic).toBe(Number.POSITIVE_INFINITY);
    else expectClose(s.ic, ic, tol.icRel, 1e-4);
  });
  list(c.ar).forEach((v, i) => {
    expectClose(fit.ar[i], v, tol.coefRel, tol.coefAbs);
  });
  list(c.ma).forEach((v, i) => {
    expectClose(fit.ma[i], v, tol.coefRel, tol.coefAbs);
  });
  expect(fit.ar.length).toBe(list(c.ar).length);
  expect(fit.ma.length).toBe(list(c.ma).length);
  if (c.constant_coef !== null) expectClose(fit.constantCoef, c.constant_coef, tol.coefRel, tol.coefAbs);
  if (fit.constantSeries === undefined) expectClose(fit.sigma2, c.sigma2);
  if (c.aicc !== null) expectClose(fit.aicc, c.aicc);
  if (c.loglik !== null) expectClose(fit.loglik, c.loglik);
  const fc = forecastArima(fit, reference.horizon);
  expectPaths(fc.mean, fc.se, c);
}

/**
 * Series whose auto.arima order asof does not reproduce, each with its reason (none today). A case moves
 * here only with an explanation; the count test below fails on any other mismatch.
 */
const KNOWN_ORDER_MISMATCHES: Record<string, string> = {};

describe('autoArima vs forecast::auto.arima', () => {
  const agreements = new Map<string, Agreement>();

  it('covers 310 series: 32 simulated, 51 as-of histories and 227 production windows of the default universe', () => {
    const count = (g: string | undefined) => reference.auto.filter((c) => c.group === g).length;
    expect(count(undefined)).toBe(32);
    expect(count('audit') + count('quarterly') + count('monthly') + count('gaps')).toBe(51);
    expect(count('production')).toBe(227);
    expect(reference.auto.length).toBe(310);
    expect(reference.auto.some((c) => c.name === 'audit:long-term-debt-Q@2019-12-31')).toBe(true);
    // Interior gaps (the ML path with missing values), which no production window of the audit had.
    const gapped = reference.auto.filter((c) => seriesOf(c).slice(1, -1).some(Number.isNaN));
    expect(gapped.length).toBe(20);
  });

  for (const c of reference.auto) {
    it(`${c.name}: same d, search path, order, coefficients and forecasts`, () => {
      const x = seriesOf(c);
      expect(kpssDifferences(x)).toBe(c.ndiffs);
      const result = autoArima(x);
      agreements.set(c.name, agreement(result.fit, c));
      if (KNOWN_ORDER_MISMATCHES[c.name]) return;
      expectAuto(result, c, c.group === undefined ? SIMULATED : UNIVERSE);
    });
  }

  it(`matches R's order on every reference series, coefficients within ${ACCEPTANCE}, forecasts and bounds within ${ACCEPTANCE} relative`, () => {
    expect(agreements.size).toBe(reference.auto.length);
    const mismatched = [...agreements].filter(([, a]) => !a.order).map(([name]) => name);
    expect(mismatched.sort()).toEqual(Object.keys(KNOWN_ORDER_MISMATCHES).sort());
    const matched = [...agreements].filter(([, a]) => a.order).map(([, a]) => a);
    expect(matched.length).toBe(reference.auto.length - mismatched.length);
    expect(Math.max(...matched.map((a) => a.coef))).toBeLessThanOrEqual(ACCEPTANCE);
    expect(Math.max(...matched.map((a) => a.forecast))).toBeLessThanOrEqual(ACCEPTANCE);
  });
});

describe('autoArima with optimControl vs auto.arima(optim.control = list(maxit = 1000))', () => {
  // On these short series some searched models' CSS stage stops at R's default 100 iterations. With the
  // limit raised in both programs the CSS stage converges and both reach the same models: on the audit's
  // long-term-debt case ARIMA(2,1,2) with drift, AICc -38.37 (the model the audit's R found with the default
  // limit on its platform, where that CSS run converged in 86 iterations).
  for (const c of reference.optim_control) {
    it(`${c.name} with maxit = ${c.maxit}`, () => {
      const result = autoArima(seriesOf(c), { optimControl: { maxit: c.maxit } });
      expectAuto(result, c, UNIVERSE);
    });
  }

  it('moves the audit case from ARIMA(0,1,0) to ARIMA(2,1,2) with drift, as R does', () => {
    const name = 'audit:long-term-debt-Q@2019-12-31';
    const x = seriesOf({ name });
    expect(autoArima(x).fit.order).toEqual({ p: 0, d: 1, q: 0 });
    const raised = autoArima(x, { optimControl: { maxit: 1000 } }).fit;
    expect({ ...raised.order, constant: raised.constant }).toEqual({ p: 2, d: 1, q: 2, constant: 'drift' });
    expect(raised.aicc).toBeCloseTo(-38.366, 3);
  });
});

describe('ArimaBaseline on a window with interior gaps', () => {
  // What the scorer does with a step missing inside the input window (not public at the origin): the window
  // is placed on its grid with the step missing, and auto.arima fits it by ML through the Kalman filter,
  // which skips the missing step, as R's arima does with NA (never by closing the gap, which would shift
  // every later value by a step and change the drift).
  for (const name of [
    'gap-q:syn:edgar:9990000001:cash-and-cash-equivalents:Q@2019-12-31',
    'q_drift_gaps_30',
  ]) {
    it(`${name}: placed on the grid, forecasts exp(R's mean) and exp(R's 80% bounds)`, () => {
      const c = reference.auto.find((a) => a.name === name)!;
      const x = seriesOf(c);
      const tail: number[] = [];
      const back: number[] = [];
      x.forEach((v, i) => {
        if (Number.isNaN(v)) return;
        tail.push(Math.exp(v));
        back.push(x.length - 1 - i);
      });
      expect(tail.length).toBeLessThan(x.length);
      const path = new ArimaBaseline().pathAt('s', 1, tail, back, 12)!;
      const K = path.levels.length;
      const i10 = path.levels.indexOf(0.1);
      const i90 = path.levels.indexOf(0.9);
      for (let k = 0; k < 12; k++) {
        expectClose(Math.log(path.point[k]), c.mean[k], 1e-6);
        expectClose(Math.log(path.quantiles[k * K + i10]), c.lower80[k], 1e-6);
        expectClose(Math.log(path.quantiles[k * K + i90]), c.upper80[k], 1e-6);
      }
      // Closing the gaps instead (the same values on consecutive steps) is another model.
      const closed = new ArimaBaseline().pathAt('s', 1, tail, null, 12)!;
      expect(Math.abs(Math.log(closed.point[11]) - c.mean[11])).toBeGreaterThan(1e-4);
    });
  }
});

describe('fitArima vs forecast::Arima at fixed orders', () => {
  for (const c of reference.fixed) {
    it(`${c.name} ARIMA(${c.order.p},${c.order.d},${c.order.q})${c.drift ? ' with drift' : ''}`, () => {
      const fit = fitArima(seriesOf(c), c.order, {
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
