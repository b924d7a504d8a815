import type { Gradient, Objective } from './minimize-bfgs.ts';

export interface BoxOptions {
  /** Iteration limit; default 500. */
  maxit?: number;
  /** Stop when the relative decrease of f over one iteration is ≤ ftol; default 1e-14. */
  ftol?: number;
  /** Stop when the projected gradient's largest component is ≤ pgtol; default 1e-10. */
  pgtol?: number;
}

export interface BoxResult {
  par: Float64Array;
  value: number;
  /** 0 converged (f, projected gradient or step test), 1 iteration limit, 2 line search found no decrease. */
  convergence: 0 | 1 | 2;
  iterations: number;
  fnCount: number;
}

const ARMIJO = 1e-4;
const MAX_HALVINGS = 60;

function clamp(v: number, lo: number, up: number): number {
  return Math.max(lo, Math.min(v, up));
}

/**
 * Minimises f over the box lower ≤ x ≤ upper (bounds may be ±Infinity) by projected quasi-Newton
 * (Bertsekas 1982): variables at a bound whose gradient points out of the box are held fixed, the others
 * move along the BFGS direction of the inverse-Hessian approximation restricted to them, and the step is
 * searched along the projection of the ray onto the box (Armijo backtracking, step halved). The
 * approximation is rescaled after the first step (s'y/y'y), updated only with positive curvature, and reset
 * when the set of held variables changes or the direction is not downhill. Infeasible points (f not finite)
 * are rejected by the line search. Used for the GARCH likelihood with its analytic gradient.
 */
export function minimizeBox(
  fn: Objective,
  gradient: Gradient,
  x0: ArrayLike<number>,
  lower: ArrayLike<number>,
  upper: ArrayLike<number>,
  options: BoxOptions = {},
): BoxResult {
  const n = x0.length;
  const maxit = options.maxit ?? 500;
  const ftol = options.ftol ?? 1e-14;
  const pgtol = options.pgtol ?? 1e-10;
  const x = Float64Array.from(x0, (v, i) => clamp(v, lower[i], upper[i]));
  let f = fn(x);
  let fnCount = 1;
  if (!Number.isFinite(f)) throw new RangeError('minimizeBox: the objective is not finite at the start');
  const g = new Float64Array(n);
  gradient(x, g);
  const H = new Float64Array(n * n);
  const resetH = (scale: number) => {
    H.fill(0);
    for (let i = 0; i < n; i++) H[i * n + i] = scale;
  };
  resetH(1);
  let scaled = false;
  const free = new Uint8Array(n);
  const prevFree = new Uint8Array(n);
  const d = new Float64Array(n);
  const xt = new Float64Array(n);
  const gt = new Float64Array(n);
  const s = new Float64Array(n);
  const y = new Float64Array(n);
  const Hy = new Float64Array(n);
  let convergence: 0 | 1 | 2 = 1;
  let iter = 0;
  for (; iter < maxit; iter++) {
    let pg = 0;
    let changed = false;
    for (let i = 0; i < n; i++) {
      const held = (x[i] <= lower[i] && g[i] > 0) || (x[i] >= upper[i] && g[i] < 0);
      free[i] = held ? 0 : 1;
      if (iter > 0 && free[i] !== prevFree[i]) changed = true;
      prevFree[i] = free[i];
      // Projected-gradient component: the move a unit steepest-descent step would make inside the box.
      pg = Math.max(pg, Math.abs(clamp(x[i] - g[i], lower[i], upper[i]) - x[i]));
    }
    if (pg <= pgtol) {
      convergence = 0;
      break;
    }
    if (changed) {
      resetH(1);
      scaled = false;
    }
    let slope = 0;
    for (let i = 0; i < n; i++) {
      let v = 0;
      if (free[i]) for (let j = 0; j < n; j++) if (free[j]) v -= H[i * n + j] * g[j];
      d[i] = v;
      slope += v * g[i];
    }
    if (!(slope < 0)) {
      resetH(1);
      scaled = false;
      slope = 0;
      for (let i = 0; i < n; i++) {
        d[i] = free[i] ? -g[i] : 0;
        slope += d[i] * g[i];
      }
    }
    let t = 1;
    let accepted = false;
    let ft = f;
    for (let k = 0; k < MAX_HALVINGS; k++) {
      let decrease = 0;
      for (let i = 0; i < n; i++) {
        xt[i] = clamp(x[i] + t * d[i], lower[i], upper[i]);
        decrease += g[i] * (xt[i] - x[i]);
      }
      ft = fn(xt);
      fnCount++;
      if (Number.isFinite(ft) && ft <= f + ARMIJO * decrease) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) {
      convergence = 2;
      break;
    }
    gradient(xt, gt);
    let sy = 0;
    let yy = 0;
    let ss = 0;
    for (let i = 0; i < n; i++) {
      s[i] = xt[i] - x[i];
      y[i] = gt[i] - g[i];
      sy += s[i] * y[i];
      yy += y[i] * y[i];
      ss += s[i] * s[i];
    }
    const small = Math.abs(f - ft) <= ftol * (Math.abs(f) + ftol);
    x.set(xt);
    g.set(gt);
    f = ft;
    if (small || ss === 0) {
      convergence = 0;
      break;
    }
    if (sy > 1e-12 * Math.sqrt(ss * yy)) {
      if (!scaled) {
        resetH(sy / yy);
        scaled = true;
      }
      // Inverse BFGS update: H ← (I − ρsy')H(I − ρys') + ρss', ρ = 1/s'y.
      const rho = 1 / sy;
      let yHy = 0;
      for (let i = 0; i < n; i++) {
        let v = 0;
        for (let j = 0; j < n; j++) v += H[i * n + j] * y[j];
        Hy[i] = v;
        yHy += y[i] * v;
      }
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          H[i * n + j] += -rho * (s[i] * Hy[j] + Hy[i] * s[j]) + (rho * rho * yHy + rho) * s[i] * s[j];
        }
      }
    }
  }
  return { par: x, value: f, convergence, iterations: iter, fnCount };
}
