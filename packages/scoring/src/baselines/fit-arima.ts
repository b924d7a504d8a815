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
  kalmanFilter,
  makeStateModel,
  solveLinear,
} from './arima-state-space.ts';
import { minimizeBfgs, numericHessian } from './minimize-bfgs.ts';

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
 *   profiled out, AR parameters through the partial-autocorrelation transform, MA roots inverted;
 * - the numerical Hessian's inverse must have a positive diagonal and the AR/MA roots must lie outside
 *   |z| = 1.01, else `ic` is Infinity (auto.arima's checks).
 * Throws ArimaFitError where stats::arima stops with an error.
 */
export function fitArima(x: ArrayLike<number>, order: ArimaOrder, options: FitArimaOptions = {}): ArimaFit {
  const { p, d, q } = order;
  const n = x.length;
  const narma = p + q;
  const constant: ArimaFit['constant'] = options.constant
    ? d === 0
      ? 'mean'
      : d === 1
        ? 'drift'
        : 'none'
    : 'none';
  const ncx = constant === 'none' ? 0 : 1;
  const z = ncx ? Float64Array.from({ length: n }, (_, i) => (constant === 'mean' ? 1 : i + 1)) : null;
  const observed = countObserved(x);
  let method: ArimaMethod = options.method ?? 'CSS-ML';
  if (method === 'CSS-ML' && observed < n) method = 'ML';
  let nUsed = observed - d;
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
    nUsed = observed - d;
  }
  if (nUsed <= 0) throw new ArimaFitError('too few non-missing observations');
  const ncondCss = d + p;
  const constOf = (par: ArrayLike<number>) => (ncx ? (estimateConst ? par[narma] : fixedConst!) : 0);
  const adjusted = (c: number) => {
    if (!ncx) return x;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = x[i] - c * z![i];
    return out;
  };
  const cssObjective = (par: Float64Array) => {
    const phi = par.subarray(0, p);
    const theta = par.subarray(p, narma);
    const res = conditionalSumOfSquares(adjusted(constOf(par)), d, phi, theta, ncondCss);
    return 0.5 * Math.log(res.sigma2);
  };
  const mlObjective = (transform: boolean) => (par: Float64Array) => {
    const phi = transform ? arFromUnconstrained(par.subarray(0, p)) : Float64Array.from(par.subarray(0, p));
    const theta = Float64Array.from(par.subarray(p, narma));
    const model = makeStateModel(phi, theta, d);
    if (!model) return Number.MAX_VALUE;
    const res = kalmanFilter(model, adjusted(constOf(par)), false);
    const s2 = res.ssq / res.nu;
    return 0.5 * (Math.log(s2) + res.sumlog / res.nu);
  };
  const free = (v: Float64Array) => (estimateConst || !ncx ? v : v.subarray(0, narma));
  const freeScale = free(parscale);
  const withConst = (par: ArrayLike<number>) => {
    const out = new Float64Array(narma + ncx);
    for (let i = 0; i < npar; i++) out[i] = par[i];
    if (ncx && !estimateConst) out[narma] = fixedConst!;
    return out;
  };
  const css = (par: Float64Array) => cssObjective(withConst(par));

  let coef: Float64Array;
  let value: number;
  let variance: Float64Array | null = null;
  let converged = true;
  let sigma2: number;
  let residuals: Float64Array;
  let state: ArimaStateModel | null = null;
  if (method === 'CSS') {
    if (npar > 0) {
      const res = minimizeBfgs(css, free(init), { parscale: freeScale });
      converged = res.convergence === 0;
      coef = withConst(res.par);
      value = res.value;
      const H = numericHessian(css, res.par, freeScale);
      variance = invertScaled(H, npar, nUsed);
      if (!variance) throw new ArimaFitError('Lapack routine dgesv: system is exactly singular');
    } else {
      coef = withConst([]);
      value = css(new Float64Array(0));
    }
    const cssRes = conditionalSumOfSquares(
      adjusted(constOf(coef)),
      d,
      coef.subarray(0, p),
      coef.subarray(p, narma),
      ncondCss,
    );
    sigma2 = cssRes.sigma2;
    residuals = cssRes.residuals;
  } else {
    const start = free(init).slice();
    if (method === 'CSS-ML' && npar > 0) {
      const res = minimizeBfgs(css, start, { parscale: freeScale });
      if (res.convergence === 0) start.set(res.par);
      if (p > 0 && !rootsOutside(start.subarray(0, p)))
        throw new ArimaFitError('non-stationary AR part from CSS');
    }
    // stats::arima's transform.pars: on whenever something is estimated (it only changes the AR part).
    const transform = npar > 0;
    if (transform) {
      if (p > 0) start.set(arToUnconstrained(start.subarray(0, p)), 0);
      if (q > 0) start.set(invertMa(start.subarray(p, narma)), p);
    }
    const ml = (par: Float64Array) => mlObjective(transform)(withConst(par));
    let par: Float64Array;
    if (npar > 0) {
      const res = minimizeBfgs(ml, start, { parscale: freeScale });
      converged = res.convergence === 0;
      par = res.par;
      value = res.value;
      if (q > 0) {
        const inverted = invertMa(par.subarray(p, narma));
        let changed = false;
        for (let i = 0; i < q; i++) if (inverted[i] !== par[p + i]) changed = true;
        if (changed) {
          par = par.slice();
          par.set(inverted, p);
          value = ml(par);
        }
      }
      const H = numericHessian(ml, par, freeScale);
      const inv = invertScaled(H, npar, nUsed);
      if (!inv) throw new ArimaFitError('Lapack routine dgesv: system is exactly singular');
      // var = A' (H·n)⁻¹ A with A the Jacobian of the AR transform.
      const A = arTransformJacobian(par, p, npar);
      variance = new Float64Array(npar * npar);
      for (let i = 0; i < npar; i++) {
        for (let j = 0; j < npar; j++) {
          let s = 0;
          for (let k = 0; k < npar; k++)
            for (let l = 0; l < npar; l++) s += A[k * npar + i] * inv[k * npar + l] * A[l * npar + j];
          variance[i * npar + j] = s;
        }
      }
      coef = withConst(par);
      if (p > 0) coef.set(arFromUnconstrained(par.subarray(0, p)), 0);
    } else {
      coef = withConst([]);
      value = ml(new Float64Array(0));
    }
    const model = makeStateModel(
      Float64Array.from(coef.subarray(0, p)),
      Float64Array.from(coef.subarray(p, narma)),
      d,
    );
    if (!model) throw new ArimaFitError('non-stationary AR part');
    const filtered = kalmanFilter(model, adjusted(constOf(coef)), true);
    state = model;
    sigma2 = filtered.ssq / nUsed;
    residuals = filtered.residuals!;
  }
  const minus2loglik = 2 * nUsed * value + nUsed + nUsed * Math.log(2 * Math.PI);
  const k = npar + 1;
  const nstar = observed - d;
  let aic =
    method === 'CSS' ? (options.offset ?? 0) + nstar * Math.log(sigma2) + 2 * k : minus2loglik + 2 * npar + 2;
  if (Number.isNaN(aic)) aic = Number.POSITIVE_INFINITY;
  const bic = aic + k * (Math.log(nstar) - 2);
  const aicc = aic + (2 * k * (k + 1)) / (nstar - k - 1);
  let ic = options.ic === 'aic' ? aic : options.ic === 'bic' ? bic : aicc;
  let ss = 0;
  for (let i = 0; i < residuals.length; i++) if (!Number.isNaN(residuals[i])) ss += residuals[i] ** 2;
  const ar = Float64Array.from(coef.subarray(0, p));
  const ma = Float64Array.from(coef.subarray(p, narma));
  if (!acceptableRoots(ar, ma)) ic = Number.POSITIVE_INFINITY;
  if (variance)
    for (let i = 0; i < npar; i++) if (!(variance[i * npar + i] >= 0)) ic = Number.POSITIVE_INFINITY;
  return {
    order,
    constant,
    ar,
    ma,
    constantCoef: ncx ? coef[narma] : Number.NaN,
    sigma2: ss / (nstar - k + 1),
    sigma2Fit: sigma2,
    loglik: method === 'CSS' ? Number.NaN : -0.5 * minus2loglik,
    aic,
    aicc,
    bic,
    ic: Number.isNaN(ic) ? Number.POSITIVE_INFINITY : ic,
    method,
    parameters: k,
    nobs: nUsed,
    n,
    state,
    converged,
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
