import { isConstantSeries, kpssDifferences } from '@asof/stats';
import {
  type ArimaFit,
  ArimaFitError,
  type ArimaOrder,
  fitArima,
  fitArimaDeferred,
  type OptimControl,
} from './fit-arima.ts';

export interface AutoArimaOptions {
  /** Number of differences; default chosen by the KPSS test (forecast::ndiffs). */
  d?: number;
  maxP?: number;
  maxQ?: number;
  maxD?: number;
  startP?: number;
  startQ?: number;
  ic?: 'aicc' | 'aic' | 'bic';
  /** Search with CSS fits and an IC offset, then refit the best by ML; default: more than 150 values. */
  approximation?: boolean;
  allowDrift?: boolean;
  allowMean?: boolean;
  /** Model budget of the stepwise search (forecast's nmodels). */
  nmodels?: number;
  /**
   * R's optim.control, passed to every fit as auto.arima passes `...` on to stats::arima (default R's:
   * maxit 100, reltol √ε). The baseline keeps R's defaults (docs/decisions/0013, issue 51).
   */
  optimControl?: OptimControl;
}

/** One model the stepwise search tried, in order. */
export interface SearchStep {
  order: ArimaOrder;
  constant: boolean;
  ic: number;
}

export interface AutoArimaResult {
  fit: ArimaFit;
  /** The models tried, in the order forecast::auto.arima tries them. */
  searched: SearchStep[];
}

type Deferred = ReturnType<typeof fitArimaDeferred>;

/**
 * forecast's myarima: a fit, or null when stats::arima would stop with an error, its Hessian left for
 * later (fitArimaDeferred); settle() gives the fit or null as fitting at once would.
 */
function tryFit(
  x: Float64Array,
  order: ArimaOrder,
  constant: boolean,
  approximation: boolean,
  offset: number,
  ic: 'aicc' | 'aic' | 'bic',
  optimControl: OptimControl | undefined,
): Deferred | null {
  try {
    const deferred = fitArimaDeferred(x, order, {
      constant,
      method: approximation ? 'CSS' : 'CSS-ML',
      offset,
      ic,
      optimControl,
    });
    return { fit: deferred.fit, settle: () => guarded(deferred.settle) };
  } catch {
    // Any failure (non-stationary CSS start, singular Hessian, non-finite objective) rejects the model,
    // as forecast::auto.arima's try() does.
    return null;
  }
}

function guarded(settle: () => ArimaFit | null): ArimaFit | null {
  try {
    return settle();
  } catch {
    return null;
  }
}

/** A searched model whose IC is final once settled (a model that lost without its Hessian may be pending). */
interface Searched extends SearchStep {
  settle?: () => ArimaFit | null;
}

/** Settles a searched model: its IC as fitting at once would have given it (never lower than before). */
function settleStep(s: Searched): void {
  if (!s.settle) return;
  s.ic = s.settle()?.ic ?? Number.POSITIVE_INFINITY;
  s.settle = undefined;
}

/**
 * forecast::auto.arima for a non-seasonal series (Hyndman & Khandakar 2008): d by repeated KPSS tests,
 * then the stepwise search from ARIMA(2,d,2), (0,d,0), (1,d,0), (0,d,1) (with a constant when d ≤ 1: a
 * mean for d = 0, a drift for d = 1) and (0,d,0) without, moving one of p, q by ±1 (or both) or toggling
 * the constant while the IC (AICc by default) improves. With more than 150 values the search ranks CSS
 * fits (IC offset from the ML ARIMA(0,d,0)), then refits the models by ML in IC order until one is
 * accepted. A constant series gets its value with zero variance; a series constant after differencing gets
 * ARIMA(0,d,0) with the constant fixed to the mean difference. NaN marks a missing value (leading ones are
 * dropped). Throws ArimaFitError when no model can be fitted.
 */
export function autoArima(series: ArrayLike<number>, options: AutoArimaOptions = {}): AutoArimaResult {
  let start = 0;
  while (start < series.length && Number.isNaN(series[start])) start++;
  const x = Float64Array.from(Array.prototype.slice.call(series, start) as number[]);
  let last = x.length - 1;
  while (last >= 0 && Number.isNaN(x[last])) last--;
  let serieslength = 0;
  for (let i = 0; i <= last; i++) if (!Number.isNaN(x[i])) serieslength++;
  if (serieslength === 0) throw new ArimaFitError('All data are missing');
  const searched: Searched[] = [];
  const optimControl = options.optimControl;
  if (isConstantSeries(x)) {
    const fit = fitArima(x, { p: 0, d: 0, q: 0 }, { constant: true, fixedConstant: x[0], optimControl });
    return { fit: { ...fit, constantSeries: x[0] }, searched };
  }
  let ic = options.ic ?? 'aicc';
  const maxP = Math.min(options.maxP ?? 5, Math.floor(serieslength / 3));
  const maxQ = Math.min(options.maxQ ?? 5, Math.floor(serieslength / 3));
  if (serieslength <= 3) ic = 'aic';
  let d = options.d ?? Number.NaN;
  if (Number.isNaN(d)) {
    d = kpssDifferences(x, options.maxD ?? 2);
    if (d > 0 && difference(x, d).every(Number.isNaN)) d--;
  }
  const dx = d > 0 ? difference(x, d) : x;
  if (dx.length === 0) throw new ArimaFitError('Not enough data to proceed');
  if (isConstantSeries(dx)) {
    const order = { p: 0, d, q: 0 };
    if (d === 2) return { fit: fitArima(x, order, { optimControl }), searched };
    if (d < 2) {
      const finite = Array.from(dx).filter((v) => !Number.isNaN(v));
      const mean = finite.reduce((s, v) => s + v, 0) / finite.length;
      return { fit: fitArima(x, order, { constant: true, fixedConstant: mean, optimControl }), searched };
    }
    throw new ArimaFitError('Data follow a simple polynomial and are not suitable for ARIMA modelling.');
  }
  const approximation = options.approximation ?? x.length > 150;
  let offset = 0;
  if (approximation) {
    try {
      const base = fitArima(x, { p: 0, d, q: 0 }, { constant: d === 0, optimControl });
      offset = -2 * base.loglik - serieslength * Math.log(base.sigma2Fit);
    } catch {
      offset = 0;
    }
  }
  const allowDrift = (options.allowDrift ?? true) && d === 1;
  const allowMean = (options.allowMean ?? true) && d === 0;
  let constant = allowDrift || allowMean;
  const nmodels = options.nmodels ?? 94;
  let startP = options.startP ?? 2;
  let startQ = options.startQ ?? 2;
  if (x.length < 10) {
    startP = Math.min(startP, 1);
    startQ = Math.min(startQ, 1);
  }
  let p = Math.min(startP, maxP);
  let q = Math.min(startQ, maxQ);
  let best: ArimaFit | null = null;
  let bestIc = Number.POSITIVE_INFINITY;
  const tried = (pp: number, qq: number, c: boolean) =>
    searched.some((s) => s.order.p === pp && s.order.q === qq && s.constant === c);
  const attempt = (pp: number, qq: number, c: boolean, incumbent = false): boolean => {
    const deferred = tryFit(x, { p: pp, d, q: qq }, c, approximation, offset, ic, optimControl);
    const step: Searched = {
      order: { p: pp, d, q: qq },
      constant: c,
      ic: deferred?.fit.ic ?? Number.POSITIVE_INFINITY,
    };
    searched.push(step);
    // Settling can only raise the IC (to Infinity): a model that loses without its Hessian loses with it,
    // and its Hessian is computed only if someone asks for its IC later.
    if (!(incumbent || step.ic < bestIc)) {
      if (deferred && step.ic < Number.POSITIVE_INFINITY) step.settle = deferred.settle;
      return false;
    }
    const fit = deferred ? deferred.settle() : null;
    step.ic = fit?.ic ?? Number.POSITIVE_INFINITY;
    if (incumbent || step.ic < bestIc) {
      best = fit;
      bestIc = step.ic;
      return true;
    }
    return false;
  };
  // The first model is the incumbent whatever its IC (Infinity when rejected), as in forecast.
  attempt(p, q, constant, true);
  if (attempt(0, 0, constant)) p = q = 0;
  if (maxP > 0 && attempt(1, 0, constant)) {
    p = 1;
    q = 0;
  }
  if (maxQ > 0 && attempt(0, 1, constant)) {
    p = 0;
    q = 1;
  }
  if (constant && attempt(0, 0, false)) p = q = 0;
  let k = searched.length;
  let startk = 0;
  const moves: [number, number, (pp: number, qq: number) => boolean][] = [
    [-1, 0, (pp) => pp > 0],
    [0, -1, (_, qq) => qq > 0],
    [1, 0, (pp) => pp < maxP],
    [0, 1, (_, qq) => qq < maxQ],
    [-1, -1, (pp, qq) => qq > 0 && pp > 0],
    [-1, 1, (pp, qq) => qq < maxQ && pp > 0],
    [1, -1, (pp, qq) => qq > 0 && pp < maxP],
    [1, 1, (pp, qq) => qq < maxQ && pp < maxP],
  ];
  outer: while (startk < k && k < nmodels) {
    startk = k;
    for (const [dp, dq, allowed] of moves) {
      if (allowed(p, q) && !tried(p + dp, q + dq, constant)) {
        k++;
        if (k > nmodels) continue outer;
        if (attempt(p + dp, q + dq, constant)) {
          p += dp;
          q += dq;
          continue outer;
        }
      }
    }
    if ((allowDrift || allowMean) && !tried(p, q, !constant)) {
      k++;
      if (k > nmodels) continue;
      if (attempt(p, q, !constant)) constant = !constant;
    }
  }
  if (approximation && best !== null)
    best =
      refitByMl(
        searched,
        (s) => tryFit(x, s.order, s.constant, false, 0, ic, optimControl)?.settle() ?? null,
      ) ?? best;
  const chosen = best as ArimaFit | null;
  if (chosen === null || chosen.state === null || !(chosen.ic < Number.POSITIVE_INFINITY)) {
    throw new ArimaFitError('No suitable ARIMA model found');
  }
  return {
    fit: chosen,
    // Settled when read (the baselines never read it): each IC as fitting at once would have given it.
    get searched() {
      for (const s of searched) settleStep(s);
      return searched.map(({ order, constant, ic }) => ({ order, constant, ic }));
    },
  };
}

/**
 * auto.arima's last step with approximation: the searched models refitted by ML in IC order (stable: ties
 * keep search order) until one is accepted. A pending model is settled when its turn comes; one whose IC
 * settles to Infinity takes its place among the Infinity ones, in search order, as if it had been there
 * from the start.
 */
function refitByMl(searched: Searched[], refit: (s: Searched) => ArimaFit | null): ArimaFit | null {
  const ranked = searched.map((s, i) => ({ s, i })).sort((a, b) => a.s.ic - b.s.ic || a.i - b.i);
  const tryOne = (s: Searched) => {
    const fit = refit(s);
    return fit && fit.ic < Number.POSITIVE_INFINITY ? fit : null;
  };
  for (const { s } of ranked) {
    if (!(s.ic < Number.POSITIVE_INFINITY)) break;
    settleStep(s);
    if (!(s.ic < Number.POSITIVE_INFINITY)) continue;
    const fit = tryOne(s);
    if (fit) return fit;
  }
  for (const { s } of ranked
    .filter(({ s }) => !(s.ic < Number.POSITIVE_INFINITY))
    .sort((a, b) => a.i - b.i)) {
    const fit = tryOne(s);
    if (fit) return fit;
  }
  return null;
}

function difference(x: ArrayLike<number>, d: number): number[] {
  let w = Array.from(x);
  for (let k = 0; k < d; k++) w = w.slice(1).map((v, i) => v - w[i]);
  return w;
}
