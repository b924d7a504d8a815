import { logGamma, minimizeBox } from '@asof/stats';

export type GarchMean = 'zero' | 'constant';
export type GarchDistribution = 'normal' | 'student';

/**
 * A fitted GARCH(1,1) on returns r_t = μ + e_t, e_t = √h_t·z_t:
 *   h_t = ω + α e_{t−1}² + β h_{t−1},  h_1 = mean(e²) (the sample second moment, as tseries::garch starts),
 * z_t standard normal or standardised Student t with ν > 2 degrees of freedom.
 */
export interface GarchFit {
  omega: number;
  alpha: number;
  beta: number;
  /** 0 for the zero-mean model. */
  mu: number;
  /** Degrees of freedom (Infinity for normal innovations). */
  nu: number;
  mean: GarchMean;
  distribution: GarchDistribution;
  /** Conditional variance of the next return, h_{n+1} = ω + α e_n² + β h_n. */
  nextVariance: number;
  /** Negative log-likelihood without constants for the normal model (tseries' n.likeli), with them for t. */
  negLogLik: number;
  /** Returns the fit saw. */
  n: number;
  converged: boolean;
}

export interface FitGarchOptions {
  mean?: GarchMean;
  distribution?: GarchDistribution;
  /** One start (ω, α, β) instead of the three default ones. */
  start?: readonly [number, number, number];
}

interface Data {
  y: Float64Array;
  n: number;
}

/** Conditional variances h_1..h_n and h_{n+1} for given parameters (returns null when some h ≤ 0). */
function variancePath(e: Float64Array, omega: number, alpha: number, beta: number, h: Float64Array): number {
  const n = e.length;
  let m2 = 0;
  for (let i = 0; i < n; i++) m2 += e[i] * e[i];
  h[0] = m2 / n;
  for (let i = 1; i < n; i++) h[i] = omega + alpha * e[i - 1] * e[i - 1] + beta * h[i - 1];
  return omega + alpha * e[n - 1] * e[n - 1] + beta * h[n - 1];
}

/** Student-t log-density constant and kernel weight for ν. */
function studentConstant(nu: number): number {
  return logGamma((nu + 1) / 2) - logGamma(nu / 2) - 0.5 * Math.log(Math.PI * (nu - 2));
}

/**
 * Negative log-likelihood and its gradient in (ω, α, β[, μ][, ν]) on the data (gradient in ν by central
 * differences; the others analytic through the recursion ∂h_t = ∂ω + e²_{t−1}∂α + h_{t−1}∂β + β∂h_{t−1}).
 * The sum runs over t = 2..n, as tseries::garch's does (h_1 is the fixed start).
 *
 * Every operation is variancePath's and the sums', in their order (so the numbers are the same to the bit),
 * but work that repeats is done once (issue 56): the residuals e and their start moment only when μ changes
 * (never for the zero-mean model), and the variance path not again for the gradient at the point whose value
 * was just taken (the quasi-Newton step always asks for both there).
 */
function objective(data: Data, mean: GarchMean, dist: GarchDistribution) {
  const { y, n } = data;
  const e = new Float64Array(n);
  const e2 = new Float64Array(n);
  const h = new Float64Array(n);
  let eMu = Number.NaN;
  let m2 = 0;
  let sumE = 0;
  // The (ω, α, β, μ) that h holds the path of; NaN = none yet.
  const held = new Float64Array(4).fill(Number.NaN);
  const residuals = (mu: number): void => {
    if (Object.is(mu, eMu)) return;
    m2 = 0;
    sumE = 0;
    for (let i = 0; i < n; i++) {
      e[i] = y[i] - mu;
      sumE += e[i];
    }
    for (let i = 0; i < n; i++) {
      e2[i] = e[i] * e[i];
      m2 += e2[i];
    }
    eMu = mu;
    held[0] = Number.NaN;
  };
  const path = (omega: number, alpha: number, beta: number, mu: number): void => {
    residuals(mu);
    if (
      Object.is(held[0], omega) &&
      Object.is(held[1], alpha) &&
      Object.is(held[2], beta) &&
      Object.is(held[3], mu)
    )
      return;
    h[0] = m2 / n;
    for (let i = 1; i < n; i++) h[i] = omega + alpha * e[i - 1] * e[i - 1] + beta * h[i - 1];
    held[0] = omega;
    held[1] = alpha;
    held[2] = beta;
    held[3] = mu;
  };
  const value = (x: Float64Array): number => {
    const [omega, alpha, beta] = x;
    if (!(omega > 0) || !(alpha >= 0) || !(beta >= 0)) return Number.POSITIVE_INFINITY;
    const mu = mean === 'constant' ? x[3] : 0;
    const nu = dist === 'student' ? x[mean === 'constant' ? 4 : 3] : Number.POSITIVE_INFINITY;
    path(omega, alpha, beta, mu);
    let s = 0;
    if (dist === 'normal') {
      for (let i = 1; i < n; i++) s += Math.log(h[i]) + e2[i] / h[i];
      return 0.5 * s;
    }
    const c = studentConstant(nu);
    for (let i = 1; i < n; i++) {
      s += -c + 0.5 * Math.log(h[i]) + ((nu + 1) / 2) * Math.log1p(e2[i] / ((nu - 2) * h[i]));
    }
    return s;
  };
  const gradient = (x: Float64Array, out: Float64Array): void => {
    const [omega, alpha, beta] = x;
    const withMu = mean === 'constant';
    const mu = withMu ? x[3] : 0;
    const nuIndex = dist === 'student' ? (withMu ? 4 : 3) : -1;
    const nu = nuIndex >= 0 ? x[nuIndex] : Number.POSITIVE_INFINITY;
    out.fill(0);
    path(omega, alpha, beta, mu);
    // ∂h_1: only μ moves the start (h_1 = mean(e²), ∂/∂μ = −2·mean(e)).
    // (tseries' analytic gradient sets ∂h_1/∂ω = 1 here, so it stops ~1e-3 away from this maximum.)
    let dOmega = 0;
    let dAlpha = 0;
    let dBeta = 0;
    let dMu = (-2 * sumE) / n;
    let g0 = 0;
    let g1 = 0;
    let g2 = 0;
    let g3 = 0;
    for (let i = 1; i < n; i++) {
      dOmega = 1 + beta * dOmega;
      dAlpha = e2[i - 1] + beta * dAlpha;
      dBeta = h[i - 1] + beta * dBeta;
      // ∂l_t/∂h_t, and ∂l_t/∂e_t only where μ is estimated
      let dlh: number;
      let dle = 0;
      if (dist === 'normal') {
        dlh = (0.5 * (1 - e2[i] / h[i])) / h[i];
        if (withMu) dle = e[i] / h[i];
      } else {
        const k = (nu - 2) * h[i];
        const u = e2[i] / k;
        dlh = 0.5 / h[i] - (((nu + 1) / 2) * u) / (h[i] * (1 + u));
        if (withMu) dle = ((nu + 1) * e[i]) / (k * (1 + u));
      }
      g0 += dlh * dOmega;
      g1 += dlh * dAlpha;
      g2 += dlh * dBeta;
      if (withMu) {
        dMu = -2 * alpha * e[i - 1] + beta * dMu;
        g3 += dlh * dMu - dle;
      }
    }
    out[0] = g0;
    out[1] = g1;
    out[2] = g2;
    if (withMu) out[3] = g3;
    if (nuIndex >= 0) {
      const step = 1e-6 * Math.max(1, nu);
      const w = Float64Array.from(x);
      w[nuIndex] = nu + step;
      const f1 = value(w);
      w[nuIndex] = nu - step;
      const f2 = value(w);
      out[nuIndex] = (f1 - f2) / (2 * step);
    }
  };
  return { value, gradient };
}

/**
 * Maximum-likelihood GARCH(1,1) (Bollerslev 1986) on returns r (finite values, at least 10), conditional on
 * h_1 = mean(e²), with tseries::garch's constraints ω > 0, α ≥ 0, β ≥ 0 (α + β < 1 is not imposed, as
 * there) and its start ω = 0.9·var(r), α = β = 0.05 (ν starts at 8). The data are scaled to unit second
 * moment for the optimiser (the likelihood is scale-equivariant: ω scales by the square, α and β do not),
 * which runs the box-constrained quasi-Newton `minimizeBox` with the analytic gradient.
 */
export function fitGarch(r: ArrayLike<number>, options: FitGarchOptions = {}): GarchFit {
  const mean = options.mean ?? 'zero';
  const dist = options.distribution ?? 'normal';
  const n = r.length;
  if (n < 10) throw new RangeError(`fitGarch: need at least 10 returns, got ${n}`);
  let m2 = 0;
  let m1 = 0;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(r[i])) throw new RangeError(`fitGarch: return ${i + 1} is not finite (${r[i]})`);
    m2 += r[i] * r[i];
    m1 += r[i];
  }
  m1 /= n;
  const scale = Math.sqrt(m2 / n);
  if (!(scale > 0)) throw new RangeError('fitGarch: every return is zero');
  const y = Float64Array.from(r, (v) => v / scale);
  let variance = 0;
  for (let i = 0; i < n; i++) variance += (y[i] - m1 / scale) ** 2;
  variance /= n - 1;
  // tseries' start first, then two persistent ones: the likelihood has local optima with small β that a
  // single start can end in (one of the 22 reference series does from tseries' start); the best is kept.
  const starts = options.start
    ? [[options.start[0] / (scale * scale), options.start[1], options.start[2]]]
    : [
        [0.9 * variance, 0.05, 0.05],
        [0.05 * variance, 0.05, 0.9],
        [0.1 * variance, 0.1, 0.8],
      ];
  const lower = [1e-10, 0, 0];
  const upper = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  const extra: number[] = [];
  if (mean === 'constant') {
    extra.push(m1 / scale);
    lower.push(Number.NEGATIVE_INFINITY);
    upper.push(Number.POSITIVE_INFINITY);
  }
  if (dist === 'student') {
    extra.push(8);
    lower.push(2.05);
    upper.push(500);
  }
  const obj = objective({ y, n }, mean, dist);
  let res: ReturnType<typeof minimizeBox> | null = null;
  for (const s of starts) {
    const trial = minimizeBox(obj.value, obj.gradient, [...s, ...extra], lower, upper);
    if (res === null || trial.value < res.value) res = trial;
  }
  const par = res!.par;
  const mu = mean === 'constant' ? par[3] * scale : 0;
  const nu = dist === 'student' ? par[mean === 'constant' ? 4 : 3] : Number.POSITIVE_INFINITY;
  const fit: GarchFit = {
    omega: par[0] * scale * scale,
    alpha: par[1],
    beta: par[2],
    mu,
    nu,
    mean,
    distribution: dist,
    nextVariance: Number.NaN,
    negLogLik: Number.NaN,
    n,
    converged: res!.convergence === 0,
  };
  return refilterGarch(fit, r);
}

/**
 * The fit's parameters run over returns r (a new stretch between refits): the variance path from
 * h_1 = mean(e²) of r, its next-step variance and the negative log-likelihood of r. No optimisation.
 */
export function refilterGarch(fit: GarchFit, r: ArrayLike<number>): GarchFit {
  const n = r.length;
  const e = Float64Array.from(r, (v) => v - fit.mu);
  const h = new Float64Array(n);
  const next = variancePath(e, fit.omega, fit.alpha, fit.beta, h);
  let s = 0;
  if (fit.distribution === 'normal') {
    for (let i = 1; i < n; i++) s += Math.log(h[i]) + (e[i] * e[i]) / h[i];
    s *= 0.5;
  } else {
    const c = studentConstant(fit.nu);
    for (let i = 1; i < n; i++)
      s += -c + 0.5 * Math.log(h[i]) + ((fit.nu + 1) / 2) * Math.log1p((e[i] * e[i]) / ((fit.nu - 2) * h[i]));
  }
  return { ...fit, nextVariance: next, negLogLik: s, n };
}

/**
 * Conditional variances of the next h returns: σ²_{n+1} = h_{n+1}, σ²_{n+k} = ω + (α + β)σ²_{n+k−1}
 * (E[e²] = h under both innovation laws). The horizon-k log return's variance is their partial sum.
 */
export function garchVarianceForecast(fit: GarchFit, h: number): Float64Array {
  const out = new Float64Array(h);
  let v = fit.nextVariance;
  for (let k = 0; k < h; k++) {
    out[k] = v;
    v = fit.omega + (fit.alpha + fit.beta) * v;
  }
  return out;
}
