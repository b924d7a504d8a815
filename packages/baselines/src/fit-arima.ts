import { type BfgsOptions, minimizeBfgs, numericHessian } from '@asof/stats';
import {
  arFromUnconstrained,
  arToUnconstrained,
  arTransformJacobian,
  invertMa,
  rootsOutside,
} from './arima-params.ts';
import {
  type ArimaStateModel,
  conditionalSumOfSquares,
  conditionalSumOfSquaresSigma2,
  differenceInPlace,
  kalmanFilter,
  makeStateModel,
  solveLinear,
} from './arima-state-space.ts';

export interface ArimaOrder {
  p: number;
  d: number;
  q: number;
}

export type ArimaMethod = 'CSS-ML' | 'ML' | 'CSS';

/** A fitted non-seasonal ARIMA(p, d, q), optionally with a constant (a mean for d = 0, a drift for d = 1). */
export interface ArimaFit {
  order: ArimaOrder;
  /** 'mean' (d = 0: y − μ is ARMA), 'drift' (d = 1: y − c·t is ARIMA(p,1,q), t = 1..n), or 'none'. */
  constant: 'mean' | 'drift' | 'none';
  ar: Float64Array;
  ma: Float64Array;
  /** μ or c; NaN without a constant. */
  constantCoef: number;
  /**
   * Innovation variance used for prediction intervals: Σ residuals²/(n* − k + 1), n* = n − d and k = the
   * number of estimated parameters + 1 (forecast::Arima's, not the ML estimate).
   */
  sigma2: number;
  /** stats::arima's own σ² (ML: Kalman Σv²/F over n used; CSS: CSS/n), which auto.arima's IC offset uses. */
  sigma2Fit: number;
  /** Set when the series is constant: forecasts are this value with zero variance (forecast's rule). */
  constantSeries?: number;
  /** Gaussian log-likelihood (NaN for a CSS fit). */
  loglik: number;
  aic: number;
  aicc: number;
  bic: number;
  /** The information criterion forecast::auto.arima ranks by (Infinity for a rejected model). */
  ic: number;
  method: ArimaMethod;
  /** k: estimated parameters + 1 (σ²), the count the information criteria charge. */
  parameters: number;
  /** Observations used in the likelihood (non-missing minus d). */
  nobs: number;
  /** Series length the fit was filtered over (the drift regressor runs 1..n). */
  n: number;
  /** Filtered state after the last observation (null for a CSS search fit, which is never forecast). */
  state: ArimaStateModel | null;
  /** False when the optimiser hit its iteration limit. */
  converged: boolean;
}

/** Why a fit failed: what stats::arima would stop with (forecast::auto.arima then skips the model). */
export class ArimaFitError extends Error {
  readonly code = 'ARIMA_FIT_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'ArimaFitError';
  }
}

export interface FitArimaOptions {
  /** Include a constant: a mean when d = 0, a drift when d = 1 (ignored for d ≥ 2). Default false. */
  constant?: boolean;
  method?: ArimaMethod;
  /** Fix the constant instead of estimating it (forecast::auto.arima's constant-difference case). */
  fixedConstant?: number;
  /** IC offset of auto.arima's approximation (CSS fits): aic = offset + n*·log σ² + 2k. */
  offset?: number;
  /** Criterion reported as `ic`. Default 'aicc'. */
  ic?: 'aicc' | 'aic' | 'bic';
  /** R's optim.control for both stages (CSS and ML), as stats::arima passes it; R's defaults when unset. */
  optimControl?: OptimControl;
}

/** The optim.control settings stats::arima and forecast::auto.arima pass on (BFGS iteration limit, reltol). */
export interface OptimControl {
  /** Iteration limit of each BFGS run; R's default 100. */
  maxit?: number;
  /** Relative convergence tolerance; R's default √ε ≈ 1.49e-8. */
  reltol?: number;
}

function countObserved(x: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < x.length; i++) if (!Number.isNaN(x[i])) n++;
  return n;
}

/** Least squares of dx on one regressor dz (no intercept): coefficient and its standard error. */
function regressOne(dx: ArrayLike<number>, dz: ArrayLike<number>): { coef: number; se: number } {
  let szz = 0;
  let szx = 0;
  let m = 0;
  for (let i = 0; i < dx.length; i++) {
    if (Number.isNaN(dx[i]) || Number.isNaN(dz[i])) continue;
    szz += dz[i] * dz[i];
    szx += dz[i] * dx[i];
    m++;
  }
  const coef = szx / szz;
  let rss = 0;
  for (let i = 0; i < dx.length; i++) {
    if (Number.isNaN(dx[i]) || Number.isNaN(dz[i])) continue;
    rss += (dx[i] - coef * dz[i]) ** 2;
  }
  return { coef, se: Math.sqrt(rss / (m - 1) / szz) };
}

function difference(x: ArrayLike<number>, d: number): Float64Array {
  let w = Float64Array.from(x);
  for (let k = 0; k < d; k++) w = Float64Array.from({ length: w.length - 1 }, (_, i) => w[i + 1] - w[i]);
  return w;
}

/** Inverse of a symmetric n×n matrix (row-major); null when singular to working precision. */
function invert(H: Float64Array, n: number): Float64Array | null {
  const inv = new Float64Array(n * n);
  for (let c = 0; c < n; c++) {
    const A = Float64Array.from(H);
    const b = new Float64Array(n);
    b[c] = 1;
    if (!solveLinear(A, b, n)) return null;
    for (let r = 0; r < n; r++) inv[r * n + c] = b[r];
  }
  // R's solve() refuses a system whose reciprocal condition number (1-norm) is below machine epsilon.
  const norm1 = (M: Float64Array) => {
    let best = 0;
    for (let c = 0; c < n; c++) {
      let s = 0;
      for (let r = 0; r < n; r++) s += Math.abs(M[r * n + c]);
      best = Math.max(best, s);
    }
    return best;
  };
  const rcond = 1 / (norm1(H) * norm1(inv));
  if (!(rcond >= Number.EPSILON)) return null;
  return inv;
}

/**
 * Fits ARIMA(p, d, q) to x (NaN = missing) as stats::arima does, with forecast::Arima's bookkeeping:
 * - 'CSS': minimises ½ log(CSS/n) by BFGS from zeros (the constant from least squares on the differenced
 *   series, parscale 10·its standard error);
 * - 'CSS-ML' (default; 'ML' when x has gaps): the CSS estimate, refused when its AR part is not
 *   stationary, starts the exact ML fit, which maximises the Kalman-filter Gaussian likelihood with σ²
 *   profiled out, AR parameters through the partial-autocorrelation transform, MA roots inverted; a CSS
 *   run that stops at the iteration limit is discarded and ML starts from zeros, as in R;
 * - the numerical Hessian's inverse must have a positive diagonal and the AR/MA roots must lie outside
 *   |z| = 1.01, else `ic` is Infinity (auto.arima's checks).
 * Both stages use R's optim(method = "BFGS") with `optimControl` (R's optim.control: maxit 100, reltol
 * √ε by default). Throws ArimaFitError where stats::arima stops with an error.
 */
export function fitArima(x: ArrayLike<number>, order: ArimaOrder, options: FitArimaOptions = {}): ArimaFit {
  const fit = fitArimaDeferred(x, order, options).settle();
  if (!fit) throw new ArimaFitError('Lapack routine dgesv: system is exactly singular');
  return fit;
}

/**
 * A fit whose numerical Hessian is left for later (issue 56: it is ~19% of autoArima's time, and the
 * stepwise search needs it only for the models whose IC would win). `fit` is what fitArima returns if the
 * Hessian passes; `settle()` computes it, once, and gives fitArima's result: null where fitArima throws
 * (singular), the fit with ic = Infinity where a variance is not ≥ 0, else `fit` itself. The Hessian is a
 * pure function of the problem and the optimum (the objectives keep nothing between evaluations that a
 * later evaluation reads), so settling late gives the same numbers as settling at once.
 */
export function fitArimaDeferred(
  x: ArrayLike<number>,
  order: ArimaOrder,
  options: FitArimaOptions = {},
): { fit: ArimaFit; settle: () => ArimaFit | null } {
  const problem = arimaProblem(x, order, options);
  const stage = problem.method === 'CSS' ? fitByCss(problem) : fitByMl(problem);
  const fit = summarise(problem, stage, options);
  let settled: ArimaFit | null | undefined;
  const settle = () => {
    if (settled !== undefined) return settled;
    const variance = stage.variance ? stage.variance() : null;
    const npar = problem.npar;
    if (variance === undefined) settled = null;
    else if (variance && !diagonalNonNegative(variance, npar))
      settled = { ...fit, ic: Number.POSITIVE_INFINITY };
    else settled = fit;
    return settled;
  };
  return { fit, settle };
}

function diagonalNonNegative(variance: Float64Array, k: number): boolean {
  for (let i = 0; i < k; i++) if (!(variance[i * k + i] >= 0)) return false;
  return true;
}

/** A model and series set up as stats::arima sets them up before optimising (see fitArima). */
interface ArimaProblem {
  x: ArrayLike<number>;
  order: ArimaOrder;
  n: number;
  narma: number;
  constant: ArimaFit['constant'];
  /** 1 with a constant (estimated or fixed), else 0. */
  ncx: number;
  estimateConst: boolean;
  fixedConst: number | undefined;
  /** Estimated parameters: φ, θ and the constant when it is estimated. */
  npar: number;
  observed: number;
  method: ArimaMethod;
  nUsed: number;
  /** Start of the free parameters (zeros, the constant from least squares). */
  start: Float64Array;
  /** parscale of the free parameters (1, the constant's 10·standard error). */
  scale: Float64Array;
  optim: BfgsOptions;
  /** φ, θ and the constant (fixed or free) from the free parameters. */
  withConst: (par: ArrayLike<number>) => Float64Array;
  /** x minus the constant's regressor times c, in a buffer the next call overwrites. */
  adjusted: (c: number) => ArrayLike<number>;
  constOf: (coef: ArrayLike<number>) => number;
  /** ½ log(CSS/n) of the free parameters. */
  css: (par: Float64Array) => number;
  /** The profiled Gaussian −log-likelihood / n of the free parameters (AR part transformed or not). */
  ml: (transform: boolean) => (par: Float64Array) => number;
}

function constantKind(order: ArimaOrder, wanted: boolean | undefined): ArimaFit['constant'] {
  if (!wanted) return 'none';
  return order.d === 0 ? 'mean' : order.d === 1 ? 'drift' : 'none';
}

function arimaProblem(x: ArrayLike<number>, order: ArimaOrder, options: FitArimaOptions): ArimaProblem {
  const { p, d, q } = order;
  const n = x.length;
  const narma = p + q;
  const constant = constantKind(order, options.constant);
  const ncx = constant === 'none' ? 0 : 1;
  const z = ncx ? Float64Array.from({ length: n }, (_, i) => (constant === 'mean' ? 1 : i + 1)) : null;
  const observed = countObserved(x);
  let method: ArimaMethod = options.method ?? 'CSS-ML';
  if (method === 'CSS-ML' && observed < n) method = 'ML';
  const nUsed = observed - d;
  const fixedConst = options.fixedConstant;
  const estimateConst = ncx === 1 && fixedConst === undefined;
  const npar = narma + (estimateConst ? 1 : 0);
  const init = new Float64Array(narma + ncx);
  const parscale = new Float64Array(narma + ncx).fill(1);
  if (ncx) {
    if (fixedConst !== undefined) init[narma] = fixedConst;
    else {
      const dx = difference(x, d);
      const dz = difference(z!, d);
      const fit = dx.length > 1 ? regressOne(dx, dz) : regressOne(x, z!);
      init[narma] = fit.coef;
      parscale[narma] = 10 * fit.se;
    }
  }
  if (nUsed <= 0) throw new ArimaFitError('too few non-missing observations');
  const ncondCss = d + p;
  const constOf = (par: ArrayLike<number>) => (ncx ? (estimateConst ? par[narma] : fixedConst!) : 0);
  // One buffer per problem: every caller reads the adjusted series before asking for another. It is
  // recomputed only when c changes (Object.is: the same bits), as most evaluations move φ or θ alone.
  const adjustedBuffer = ncx ? new Float64Array(n) : null;
  let adjustedFor = Number.NaN;
  const adjusted = (c: number) => {
    if (!ncx) return x;
    const out = adjustedBuffer!;
    if (Object.is(c, adjustedFor)) return out;
    for (let i = 0; i < n; i++) out[i] = x[i] - c * z![i];
    adjustedFor = c;
    return out;
  };
  // The CSS objective's differenced adjusted series, likewise recomputed only when c changes.
  const differencedBuffer = new Float64Array(n);
  let differencedFor: number | undefined;
  const differenced = (c: number) => {
    if (differencedFor !== undefined && Object.is(c, differencedFor)) return differencedBuffer;
    differencedBuffer.set(adjusted(c));
    differenceInPlace(differencedBuffer, d);
    differencedFor = c;
    return differencedBuffer;
  };
  const withConstInto = (par: ArrayLike<number>, out: Float64Array) => {
    for (let i = 0; i < npar; i++) out[i] = par[i];
    if (ncx && !estimateConst) out[narma] = fixedConst!;
    return out;
  };
  const withConst = (par: ArrayLike<number>) => withConstInto(par, new Float64Array(narma + ncx));
  // The objectives' full parameter vector: they read it and keep nothing of it.
  const objectivePar = new Float64Array(narma + ncx);
  const cssObjective = (par: Float64Array) => {
    return 0.5 * Math.log(conditionalSumOfSquaresSigma2(differenced(constOf(par)), par, p, q, ncondCss));
  };
  // The ML objective's state model, overwritten by each evaluation (the filtered state is not kept).
  let objectiveModel: ArimaStateModel | null = null;
  const mlObjective = (transform: boolean) => (par: Float64Array) => {
    const phi = transform ? arFromUnconstrained(par.subarray(0, p)) : par.slice(0, p);
    const theta = par.slice(p, narma);
    const model = makeStateModel(phi, theta, d, objectiveModel);
    if (!model) return Number.MAX_VALUE;
    objectiveModel = model;
    const res = kalmanFilter(model, adjusted(constOf(par)), false);
    const s2 = res.ssq / res.nu;
    return 0.5 * (Math.log(s2) + res.sumlog / res.nu);
  };
  const free = (v: Float64Array) => (estimateConst || !ncx ? v : v.subarray(0, narma));
  const scale = free(parscale);
  return {
    x,
    order,
    n,
    narma,
    constant,
    ncx,
    estimateConst,
    fixedConst,
    npar,
    observed,
    method,
    nUsed,
    start: free(init).slice(),
    scale,
    optim: { parscale: scale, maxit: options.optimControl?.maxit, reltol: options.optimControl?.reltol },
    withConst,
    adjusted,
    constOf,
    css: (par) => cssObjective(withConstInto(par, objectivePar)),
    ml: (transform) => {
      const objective = mlObjective(transform);
      return (par) => objective(withConstInto(par, objectivePar));
    },
  };
}

/** What an estimation stage leaves for the summary. */
interface StageResult {
  coef: Float64Array;
  /** The minimised objective (½ log σ² for CSS; the profiled −log-likelihood / n for ML). */
  value: number;
  /**
   * The coefficients' variance from the numerical Hessian at the optimum, computed when called; undefined
   * when the Hessian is singular (stats::arima stops there). Null when nothing was estimated.
   */
  variance: (() => Float64Array | undefined) | null;
  converged: boolean;
  /** stats::arima's σ² (CSS/n or Σv²/F over n used). */
  sigma2: number;
  residuals: Float64Array;
  state: ArimaStateModel | null;
}

/** method = "CSS": BFGS on the conditional sum of squares, the variance from its Hessian. */
function fitByCss(pr: ArimaProblem): StageResult {
  const { order, npar, narma, nUsed } = pr;
  let coef: Float64Array;
  let value: number;
  let variance: StageResult['variance'] = null;
  let converged = true;
  if (npar > 0) {
    const res = minimizeBfgs(pr.css, pr.start, pr.optim);
    converged = res.convergence === 0;
    coef = pr.withConst(res.par);
    value = res.value;
    variance = () => invertScaled(numericHessian(pr.css, res.par, pr.scale), npar, nUsed) ?? undefined;
  } else {
    coef = pr.withConst([]);
    value = pr.css(new Float64Array(0));
  }
  const cssRes = conditionalSumOfSquares(
    pr.adjusted(pr.constOf(coef)),
    order.d,
    coef.subarray(0, order.p),
    coef.subarray(order.p, narma),
    order.d + order.p,
  );
  return {
    coef,
    value,
    variance,
    converged,
    sigma2: cssRes.sigma2,
    residuals: cssRes.residuals,
    state: null,
  };
}

/**
 * The ML start (stats::arima's "CSS-ML"): the CSS estimate when its BFGS converged, else the zeros it
 * started from; an AR part that is not stationary stops the fit. Then the AR part is transformed to
 * partial autocorrelations and the MA part inverted, as transform.pars does.
 */
function mlStart(pr: ArimaProblem): Float64Array {
  const { p, q } = pr.order;
  const start = pr.start.slice();
  if (pr.method === 'CSS-ML' && pr.npar > 0) {
    const res = minimizeBfgs(pr.css, start, pr.optim);
    if (res.convergence === 0) start.set(res.par);
    if (p > 0 && !rootsOutside(start.subarray(0, p)))
      throw new ArimaFitError('non-stationary AR part from CSS');
  }
  if (pr.npar > 0) {
    if (p > 0) start.set(arToUnconstrained(start.subarray(0, p)), 0);
    if (q > 0) start.set(invertMa(start.subarray(p, pr.narma)), p);
  }
  return start;
}

/** method = "ML" / "CSS-ML": BFGS on the exact likelihood, then the filtered state and residuals. */
function fitByMl(pr: ArimaProblem): StageResult {
  const { p, d, q } = pr.order;
  const { npar, narma, nUsed } = pr;
  const start = mlStart(pr);
  // stats::arima's transform.pars: on whenever something is estimated (it only changes the AR part).
  const ml = pr.ml(npar > 0);
  let coef: Float64Array;
  let value: number;
  let variance: StageResult['variance'] = null;
  let converged = true;
  if (npar > 0) {
    const res = minimizeBfgs(ml, start, pr.optim);
    converged = res.convergence === 0;
    let par = res.par;
    value = res.value;
    if (q > 0) {
      // MA roots inside the unit circle are inverted and the objective re-evaluated there (R's re-fit
      // with maxit = 0).
      const inverted = invertMa(par.subarray(p, narma));
      let changed = false;
      for (let i = 0; i < q; i++) if (inverted[i] !== par[p + i]) changed = true;
      if (changed) {
        par = par.slice();
        par.set(inverted, p);
        value = ml(par);
      }
    }
    const at = par;
    variance = () => {
      const inv = invertScaled(numericHessian(ml, at, pr.scale), npar, nUsed);
      return inv ? transformVariance(inv, arTransformJacobian(at, p, npar), npar) : undefined;
    };
    coef = pr.withConst(par);
    if (p > 0) coef.set(arFromUnconstrained(par.subarray(0, p)), 0);
  } else {
    coef = pr.withConst([]);
    value = ml(new Float64Array(0));
  }
  const model = makeStateModel(
    Float64Array.from(coef.subarray(0, p)),
    Float64Array.from(coef.subarray(p, narma)),
    d,
  );
  if (!model) throw new ArimaFitError('non-stationary AR part');
  const filtered = kalmanFilter(model, pr.adjusted(pr.constOf(coef)), true);
  return {
    coef,
    value,
    variance,
    converged,
    sigma2: filtered.ssq / nUsed,
    residuals: filtered.residuals!,
    state: model,
  };
}

/** var = A' (H·n)⁻¹ A with A the Jacobian of the AR transform (k×k, row-major). */
function transformVariance(inv: Float64Array, A: Float64Array, k: number): Float64Array {
  const variance = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let a = 0; a < k; a++)
        for (let b = 0; b < k; b++) s += A[a * k + i] * inv[a * k + b] * A[b * k + j];
      variance[i * k + j] = s;
    }
  }
  return variance;
}

/** The information criteria, forecast's σ² and auto.arima's acceptance checks (see fitArima). */
function summarise(pr: ArimaProblem, st: StageResult, options: FitArimaOptions): ArimaFit {
  const { order, npar, narma, nUsed, method } = pr;
  const minus2loglik = 2 * nUsed * st.value + nUsed + nUsed * Math.log(2 * Math.PI);
  const k = npar + 1;
  const nstar = pr.observed - order.d;
  let aic =
    method === 'CSS'
      ? (options.offset ?? 0) + nstar * Math.log(st.sigma2) + 2 * k
      : minus2loglik + 2 * npar + 2;
  if (Number.isNaN(aic)) aic = Number.POSITIVE_INFINITY;
  const bic = aic + k * (Math.log(nstar) - 2);
  const aicc = aic + (2 * k * (k + 1)) / (nstar - k - 1);
  let ic = options.ic === 'aic' ? aic : options.ic === 'bic' ? bic : aicc;
  let ss = 0;
  for (let i = 0; i < st.residuals.length; i++)
    if (!Number.isNaN(st.residuals[i])) ss += st.residuals[i] ** 2;
  const ar = Float64Array.from(st.coef.subarray(0, order.p));
  const ma = Float64Array.from(st.coef.subarray(order.p, narma));
  if (!acceptableRoots(ar, ma)) ic = Number.POSITIVE_INFINITY;
  return {
    order,
    constant: pr.constant,
    ar,
    ma,
    constantCoef: pr.ncx ? st.coef[narma] : Number.NaN,
    sigma2: ss / (nstar - k + 1),
    sigma2Fit: st.sigma2,
    loglik: method === 'CSS' ? Number.NaN : -0.5 * minus2loglik,
    aic,
    aicc,
    bic,
    ic: Number.isNaN(ic) ? Number.POSITIVE_INFINITY : ic,
    method,
    parameters: k,
    nobs: nUsed,
    n: pr.n,
    state: st.state,
    converged: st.converged,
  };
}

/** (H·n)⁻¹, or null when singular. */
function invertScaled(H: Float64Array, k: number, n: number): Float64Array | null {
  return invert(
    Float64Array.from(H, (v) => v * n),
    k,
  );
}

/**
 * forecast::auto.arima's root check: the AR and MA polynomials (coefficients below 1e-8 in magnitude
 * trimmed from the end) have every root outside |z| = 1.01.
 */
function acceptableRoots(ar: Float64Array, ma: Float64Array): boolean {
  const trimmed = (c: Float64Array) => {
    let k = c.length;
    while (k > 0 && !(Math.abs(c[k - 1]) > 1e-8)) k--;
    return c.subarray(0, k);
  };
  const negMa = Float64Array.from(trimmed(ma), (v) => -v);
  return rootsOutside(trimmed(ar), 1.01) && rootsOutside(negMa, 1.01);
}
