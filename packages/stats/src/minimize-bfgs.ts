/** An objective: parameters → value (NaN or ±Infinity marks an infeasible point). */
export type Objective = (x: Float64Array) => number;
/** A gradient: writes ∂f/∂x into `out`. */
export type Gradient = (x: Float64Array, out: Float64Array) => void;

export interface BfgsOptions {
  /** Iteration limit (gradient evaluations); R optim's default 100. */
  maxit?: number;
  /** Stop when |Δf| ≤ reltol·(|f| + reltol); R's default √ε ≈ 1.49e-8. */
  reltol?: number;
  /** Stop when f ≤ abstol; default −∞ (off). */
  abstol?: number;
  /** Per-parameter scale: the search runs on x/parscale (R optim's parscale). Default 1. */
  parscale?: ArrayLike<number>;
  /** Step of the central-difference gradient in scaled units (R optim's ndeps). Default 1e-3. */
  ndeps?: number;
  /** Analytic gradient in unscaled units; default central differences. */
  gradient?: Gradient;
}

export interface BfgsResult {
  par: Float64Array;
  value: number;
  /** 0 converged, 1 iteration limit reached (R optim's convergence code). */
  convergence: 0 | 1;
  fnCount: number;
  grCount: number;
}

const STEP_REDUCTION = 0.2;
const ACCEPT_TOL = 1e-4;
const REL_TEST = 10;

/**
 * The gradient of `fn` at `x` by central differences, h = ndeps·parscale_i per coordinate, as R optim
 * computes it without an analytic gradient. Throws when a difference is not finite.
 */
export function centralGradient(
  fn: Objective,
  x: Float64Array,
  out: Float64Array,
  parscale?: ArrayLike<number>,
  ndeps = 1e-3,
): void {
  const w = Float64Array.from(x);
  for (let i = 0; i < x.length; i++) {
    const s = parscale ? parscale[i] : 1;
    w[i] = x[i] + ndeps * s;
    const f1 = fn(w);
    w[i] = x[i] - ndeps * s;
    const f2 = fn(w);
    w[i] = x[i];
    // In unscaled units: (f1 − f2)/(2·ndeps·s).
    out[i] = (f1 - f2) / (2 * ndeps * s);
    if (!Number.isFinite(out[i])) throw new RangeError(`non-finite finite-difference value [${i + 1}]`);
  }
}

/**
 * Unconstrained minimisation by the variable-metric (BFGS) method of Nash (1990, Algorithm 21), the method
 * R's optim(method = "BFGS") implements: an inverse-Hessian update, a backtracking line search (step × 0.2
 * until the Armijo condition with 1e-4 holds, infeasible points rejected), a reset to steepest descent
 * when the direction is uphill or the update loses positive curvature, and a restart every 2n gradients
 * without a reset. The search runs on x/parscale, as optim does. The ARIMA fit uses it with the same
 * defaults as R, so that it follows the same path to the same optimum as stats::arima.
 */
export function minimizeBfgs(fn: Objective, x0: ArrayLike<number>, options: BfgsOptions = {}): BfgsResult {
  const n = x0.length;
  const maxit = options.maxit ?? 100;
  const reltol = options.reltol ?? Math.sqrt(Number.EPSILON);
  const abstol = options.abstol ?? Number.NEGATIVE_INFINITY;
  const ndeps = options.ndeps ?? 1e-3;
  const scale = Float64Array.from({ length: n }, (_, i) => options.parscale?.[i] ?? 1);
  const unscaled = new Float64Array(n);
  const toX = (b: Float64Array) => {
    for (let i = 0; i < n; i++) unscaled[i] = b[i] * scale[i];
    return unscaled;
  };
  const f = (b: Float64Array) => fn(toX(b));
  const gUnscaled = new Float64Array(n);
  const grad = (b: Float64Array, out: Float64Array) => {
    if (options.gradient) {
      options.gradient(Float64Array.from(toX(b)), gUnscaled);
      for (let i = 0; i < n; i++) out[i] = gUnscaled[i] * scale[i];
    } else {
      // Central differences in scaled units: step ndeps on b_i.
      centralGradient(f, b, out, undefined, ndeps);
    }
  };
  const b = Float64Array.from(x0, (v, i) => v / scale[i]);
  if (maxit <= 0) {
    return { par: toX(b).slice(), value: f(b), convergence: 0, fnCount: 0, grCount: 0 };
  }
  const g = new Float64Array(n);
  const t = new Float64Array(n);
  const X = new Float64Array(n);
  const c = new Float64Array(n);
  // Lower triangle of the inverse-Hessian approximation, B[i][j] for j <= i.
  const B = new Float64Array(n * n);
  let fval = f(b);
  if (!Number.isFinite(fval)) throw new RangeError("initial value in 'vmmin' is not finite");
  let fmin = fval;
  let funcount = 1;
  let gradcount = 1;
  grad(b, g);
  let iter = 1;
  let ilast = gradcount;
  let count = 0;
  do {
    if (ilast === gradcount) {
      B.fill(0);
      for (let i = 0; i < n; i++) B[i * n + i] = 1;
    }
    for (let i = 0; i < n; i++) {
      X[i] = b[i];
      c[i] = g[i];
    }
    let gradproj = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j <= i; j++) s -= B[i * n + j] * g[j];
      for (let j = i + 1; j < n; j++) s -= B[j * n + i] * g[j];
      t[i] = s;
      gradproj += s * g[i];
    }
    if (gradproj < 0) {
      let steplength = 1;
      let accpoint = false;
      do {
        count = 0;
        for (let i = 0; i < n; i++) {
          b[i] = X[i] + steplength * t[i];
          if (REL_TEST + X[i] === REL_TEST + b[i]) count++;
        }
        if (count < n) {
          fval = f(b);
          funcount++;
          accpoint = Number.isFinite(fval) && fval <= fmin + gradproj * steplength * ACCEPT_TOL;
          if (!accpoint) steplength *= STEP_REDUCTION;
        }
      } while (!(count === n || accpoint));
      const enough = fval > abstol && Math.abs(fval - fmin) > reltol * (Math.abs(fmin) + reltol);
      if (!enough) {
        count = n;
        fmin = fval;
      }
      if (count < n) {
        fmin = fval;
        grad(b, g);
        gradcount++;
        iter++;
        let D1 = 0;
        for (let i = 0; i < n; i++) {
          t[i] = steplength * t[i];
          c[i] = g[i] - c[i];
          D1 += t[i] * c[i];
        }
        if (D1 > 0) {
          let D2 = 0;
          for (let i = 0; i < n; i++) {
            let s = 0;
            for (let j = 0; j <= i; j++) s += B[i * n + j] * c[j];
            for (let j = i + 1; j < n; j++) s += B[j * n + i] * c[j];
            X[i] = s;
            D2 += s * c[i];
          }
          D2 = 1 + D2 / D1;
          for (let i = 0; i < n; i++) {
            for (let j = 0; j <= i; j++) B[i * n + j] += (D2 * t[i] * t[j] - X[i] * t[j] - t[i] * X[j]) / D1;
          }
        } else {
          ilast = gradcount;
        }
      } else if (ilast < gradcount) {
        count = 0;
        ilast = gradcount;
      }
    } else {
      count = 0;
      if (ilast === gradcount) count = n;
      else ilast = gradcount;
    }
    if (iter >= maxit) break;
    if (gradcount - ilast > 2 * n) ilast = gradcount;
  } while (count !== n || ilast !== gradcount);
  // The accepted point is b (the line search leaves b at the last trial only when nothing changed).
  return {
    par: toX(b).slice(),
    value: fmin,
    convergence: iter < maxit ? 0 : 1,
    fnCount: funcount,
    grCount: gradcount,
  };
}

/**
 * The Hessian of `fn` at `x` by differences of central-difference gradients (steps ndeps·parscale),
 * symmetrised, as R's optimhess computes it for optim(hessian = TRUE). Row-major n×n.
 */
export function numericHessian(
  fn: Objective,
  x: ArrayLike<number>,
  parscale?: ArrayLike<number>,
  ndeps = 1e-3,
): Float64Array {
  const n = x.length;
  const w = Float64Array.from(x);
  const g1 = new Float64Array(n);
  const g2 = new Float64Array(n);
  const H = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    // R's optimhess steps the scaled parameter by ndeps/parscale, i.e. x_i by ndeps itself.
    const eps = ndeps;
    w[i] = x[i] + eps;
    centralGradient(fn, w, g1, parscale, ndeps);
    w[i] = x[i] - eps;
    centralGradient(fn, w, g2, parscale, ndeps);
    w[i] = x[i];
    for (let j = 0; j < n; j++) H[i * n + j] = (g1[j] - g2[j]) / (2 * eps);
  }
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const m = 0.5 * (H[i * n + j] + H[j * n + i]);
      H[i * n + j] = m;
      H[j * n + i] = m;
    }
  }
  return H;
}
