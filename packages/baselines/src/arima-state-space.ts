/**
 * The state-space form of an ARIMA(p, d, q) model used by stats::arima (Gardner, Harvey & Phillips 1980;
 * Durbin & Koopman 2001 §3.4): an ARMA state of size r = max(p, q + 1) followed by d states carrying the
 * differencing. The observation is Z'a with Z = (1, 0, …, 0, Δ₁, …, Δ_d); the ARMA state starts from its
 * stationary covariance and the difference states from a diffuse prior of variance κ = 1e6. Innovations
 * have unit variance here; σ² is profiled out of the likelihood.
 */
export interface ArimaStateModel {
  phi: Float64Array;
  theta: Float64Array;
  /** Differencing polynomial coefficients: y_t − Δ₁y_{t−1} − … − Δ_d y_{t−d} is the ARMA part. */
  delta: Float64Array;
  r: number;
  rd: number;
  /** Filtered state mean and covariance (row-major rd×rd) after the last observation. */
  a: Float64Array;
  P: Float64Array;
  /** Initial state covariance (stationary block + diffuse κ for the difference states). */
  Pn: Float64Array;
}

export const DIFFUSE_KAPPA = 1e6;

/** (1 − B)^d as Δ: d = 1 → [1]; d = 2 → [2, −1]. */
export function differencingPolynomial(d: number): Float64Array {
  let poly = [1];
  for (let i = 0; i < d; i++) {
    const next = new Array(poly.length + 1).fill(0);
    for (let k = 0; k < poly.length; k++) {
      next[k] += poly[k];
      next[k + 1] -= poly[k];
    }
    poly = next;
  }
  return Float64Array.from(poly.slice(1), (v) => -v);
}

const differencingPolynomials: Float64Array[] = [];
/** differencingPolynomial(d), computed once per d and shared by the state models (which never write it). */
function sharedDifferencingPolynomial(d: number): Float64Array {
  differencingPolynomials[d] ??= differencingPolynomial(d);
  return differencingPolynomials[d];
}

/** Solves A x = b in place (A n×n row-major, partial pivoting); false when A is singular. */
export function solveLinear(A: Float64Array, b: Float64Array, n: number): boolean {
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(A[r * n + col]) > Math.abs(A[piv * n + col])) piv = r;
    const pv = A[piv * n + col];
    if (pv === 0 || !Number.isFinite(pv)) return false;
    if (piv !== col) {
      for (let k = 0; k < n; k++) {
        const t = A[col * n + k];
        A[col * n + k] = A[piv * n + k];
        A[piv * n + k] = t;
      }
      const t = b[col];
      b[col] = b[piv];
      b[piv] = t;
    }
    for (let r = col + 1; r < n; r++) {
      const f = A[r * n + col] / pv;
      if (f === 0) continue;
      for (let k = col; k < n; k++) A[r * n + k] -= f * A[col * n + k];
      b[r] -= f * b[col];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r];
    for (let k = r + 1; k < n; k++) s -= A[r * n + k] * b[k];
    b[r] = s / A[r * n + r];
  }
  return true;
}

/**
 * The stationary covariance Q₀ of the ARMA state (r×r, row-major): the solution of Q = TQT' + RR' with T
 * the companion-form transition (φ in the first column, ones on the superdiagonal) and R = (1, θ₁, …).
 * Solved directly for the r(r+1)/2 distinct entries (r ≤ 6 here, so at most 21 unknowns). Null when the
 * system is singular (an AR part with a unit root).
 */
export function stationaryCovariance(
  phi: ArrayLike<number>,
  theta: ArrayLike<number>,
  r: number,
): Float64Array | null {
  const p = phi.length;
  const q = theta.length;
  if (r === 1) {
    const v = 1 / (1 - phiAt(phi, p, 0) * phiAt(phi, p, 0));
    return Number.isFinite(v) && v > 0 ? Float64Array.of(v) : null;
  }
  const m = (r * (r + 1)) / 2;
  const { A, b } = covarianceScratch(m);
  for (let i = 0; i < r; i++) {
    for (let j = i; j < r; j++) {
      const row = packedIndex(i, j, r);
      A[row * m + row] += 1;
      // (TQT')_ij = φ_iφ_j Q_00 + φ_i Q_{0,j+1} + φ_j Q_{i+1,0} + Q_{i+1,j+1}
      A[row * m + packedIndex(0, 0, r)] -= phiAt(phi, p, i) * phiAt(phi, p, j);
      if (j + 1 < r) A[row * m + packedIndex(0, j + 1, r)] -= phiAt(phi, p, i);
      if (i + 1 < r) A[row * m + packedIndex(i + 1, 0, r)] -= phiAt(phi, p, j);
      if (i + 1 < r && j + 1 < r) A[row * m + packedIndex(i + 1, j + 1, r)] -= 1;
      b[row] = noiseAt(theta, q, i) * noiseAt(theta, q, j);
    }
  }
  if (!solveLinear(A, b, m)) return null;
  const Q = new Float64Array(r * r);
  for (let i = 0; i < r; i++) for (let j = 0; j < r; j++) Q[i * r + j] = b[packedIndex(i, j, r)];
  for (let i = 0; i < r * r; i++) if (!Number.isFinite(Q[i])) return null;
  return Q;
}

/** φ_i, 0 beyond the AR order. */
function phiAt(phi: ArrayLike<number>, p: number, i: number): number {
  return i < p ? phi[i] : 0;
}

/** R_i of R = (1, θ₁, …, θ_q, 0, …). */
function noiseAt(theta: ArrayLike<number>, q: number, i: number): number {
  return i === 0 ? 1 : i - 1 < q ? theta[i - 1] : 0;
}

/** Position of Q_ij (= Q_ji) among the r(r+1)/2 distinct entries, row by row of the upper triangle. */
function packedIndex(i: number, j: number, r: number): number {
  const a = Math.min(i, j);
  const b = Math.max(i, j);
  return a * r - (a * (a - 1)) / 2 + (b - a);
}

let covScratch = { m: -1, A: new Float64Array(0), b: new Float64Array(0) };
/** stationaryCovariance's linear system, zeroed, reused across calls of the same size. */
function covarianceScratch(m: number): typeof covScratch {
  if (covScratch.m !== m) covScratch = { m, A: new Float64Array(m * m), b: new Float64Array(m) };
  else covScratch.A.fill(0);
  return covScratch;
}

/**
 * A state model for φ, θ and d differences, with the stationary initial covariance (null if none). Given
 * `reuse`, a model of the same r and d whose filtered state nobody needs any more, it is overwritten and
 * returned instead of allocating one (the likelihood objective's evaluations).
 */
export function makeStateModel(
  phi: Float64Array,
  theta: Float64Array,
  d: number,
  reuse?: ArimaStateModel | null,
): ArimaStateModel | null {
  const r = Math.max(phi.length, theta.length + 1);
  const delta = sharedDifferencingPolynomial(d);
  const rd = r + d;
  const Q = stationaryCovariance(phi, theta, r);
  if (!Q) return null;
  if (reuse && reuse.r === r && reuse.rd === rd) {
    // Only the Q block and the diffuse diagonal of Pn are ever non-zero: rewrite those.
    const Pn = reuse.Pn;
    for (let i = 0; i < r; i++) for (let j = 0; j < r; j++) Pn[i * rd + j] = Q[i * r + j];
    for (let i = r; i < rd; i++) Pn[i * rd + i] = DIFFUSE_KAPPA;
    reuse.phi = phi;
    reuse.theta = theta;
    return reuse;
  }
  const Pn = new Float64Array(rd * rd);
  for (let i = 0; i < r; i++) for (let j = 0; j < r; j++) Pn[i * rd + j] = Q[i * r + j];
  for (let i = r; i < rd; i++) Pn[i * rd + i] = DIFFUSE_KAPPA;
  return { phi, theta, delta, r, rd, a: new Float64Array(rd), P: new Float64Array(rd * rd), Pn };
}

/** out = T·a for the model's transition. */
function transitionMean(m: ArimaStateModel, a: Float64Array, out: Float64Array): void {
  const { phi, delta, r, rd } = m;
  const p = phi.length;
  const d = rd - r;
  for (let i = 0; i < r; i++) {
    let v = i < r - 1 ? a[i + 1] : 0;
    if (i < p) v += phi[i] * a[0];
    out[i] = v;
  }
  if (d > 0) {
    let v = a[0];
    for (let k = 0; k < d; k++) v += delta[k] * a[r + k];
    for (let i = rd - 1; i > r; i--) out[i] = a[i - 1];
    out[r] = v;
  }
}

/** out = T·P·T' + RR' using the sparse structure of T (work: rd×rd scratch). */
function transitionCovariance(
  m: ArimaStateModel,
  P: Float64Array,
  out: Float64Array,
  work: Float64Array,
): void {
  const { phi, theta, delta, r, rd } = m;
  const p = phi.length;
  const d = rd - r;
  // work = T·P (row i of T applied to the columns of P): row i < r is φ_i·P[0, ·] + P[i + 1, ·], each
  // term present when its index is in range, summed from 0 as written out here branch by branch.
  for (let i = 0; i < r; i++) {
    const w = i * rd;
    const next = (i + 1) * rd;
    if (i < p) {
      const f = phi[i];
      if (i < r - 1) for (let j = 0; j < rd; j++) work[w + j] = 0 + f * P[j] + P[next + j];
      else for (let j = 0; j < rd; j++) work[w + j] = 0 + f * P[j];
    } else if (i < r - 1) for (let j = 0; j < rd; j++) work[w + j] = 0 + P[next + j];
    else for (let j = 0; j < rd; j++) work[w + j] = 0;
  }
  if (d > 0) {
    for (let j = 0; j < rd; j++) {
      let v = P[j];
      for (let k = 0; k < d; k++) v += delta[k] * P[(r + k) * rd + j];
      work[r * rd + j] = v;
      for (let k = 1; k < d; k++) work[(r + k) * rd + j] = P[(r + k - 1) * rd + j];
    }
  }
  // out = work·T'
  const pr = Math.min(p, r - 1);
  for (let i = 0; i < rd; i++) {
    const w = i * rd;
    const w0 = work[w];
    let j = 0;
    for (; j < pr; j++) out[w + j] = 0 + phi[j] * w0 + work[w + j + 1];
    for (; j < p; j++) out[w + j] = 0 + phi[j] * w0;
    for (; j < r - 1; j++) out[w + j] = 0 + work[w + j + 1];
    for (; j < r; j++) out[w + j] = 0;
    if (d > 0) {
      let v = w0;
      for (let k = 0; k < d; k++) v += delta[k] * work[w + r + k];
      out[w + r] = v;
      for (let k = 1; k < d; k++) out[w + r + k] = work[w + r + k - 1];
    }
  }
  const q = theta.length;
  for (let i = 0; i <= Math.min(q, r - 1); i++) {
    const vi = i === 0 ? 1 : theta[i - 1];
    for (let j = 0; j <= Math.min(q, r - 1); j++) out[i * rd + j] += vi * (j === 0 ? 1 : theta[j - 1]);
  }
}

export interface KalmanResult {
  /** Σ v_t²/F_t over the observations that count (F_t < 1e4, so the diffuse start is left out). */
  ssq: number;
  /** Σ log F_t over the same observations. */
  sumlog: number;
  /** How many observations count. */
  nu: number;
  /** Standardised innovations v_t/√F_t per observation (NaN for a missing one), when asked for. */
  residuals: Float64Array | null;
}

/** Scratch vectors of kalmanFilter, reused across calls of the same state size (the filter never re-enters). */
let scratch = {
  rd: -1,
  anew: new Float64Array(0),
  Pnew: new Float64Array(0),
  work: new Float64Array(0),
  M: new Float64Array(0),
};
function kalmanScratch(rd: number): typeof scratch {
  if (scratch.rd !== rd) {
    scratch = {
      rd,
      anew: new Float64Array(rd),
      Pnew: new Float64Array(rd * rd),
      work: new Float64Array(rd * rd),
      M: new Float64Array(rd),
    };
  }
  return scratch;
}

/**
 * Runs the Kalman filter over y (NaN = missing, skipped in the update) from the model's initial state
 * (a = 0, P = Pn), leaving the filtered state in m.a and m.P. The Gaussian log-likelihood is
 * −½[n log(2πσ²) + sumlog + ssq/σ²], maximised over σ² by σ² = ssq/nu.
 */
export function kalmanFilter(m: ArimaStateModel, y: ArrayLike<number>, withResiduals: boolean): KalmanResult {
  const { rd, r, delta } = m;
  const d = rd - r;
  const a = m.a;
  const P = m.P;
  a.fill(0);
  const { anew, Pnew, work, M } = kalmanScratch(rd);
  Pnew.set(m.Pn);
  const residuals = withResiduals ? new Float64Array(y.length) : null;
  let ssq = 0;
  let sumlog = 0;
  let nu = 0;
  for (let t = 0; t < y.length; t++) {
    transitionMean(m, a, anew);
    if (t > 0) transitionCovariance(m, P, Pnew, work);
    const yt = y[t];
    if (Number.isNaN(yt)) {
      a.set(anew);
      P.set(Pnew);
      if (residuals) residuals[t] = Number.NaN;
      continue;
    }
    let resid = yt - anew[0];
    for (let k = 0; k < d; k++) resid -= delta[k] * anew[r + k];
    for (let i = 0; i < rd; i++) {
      let v = Pnew[i * rd];
      for (let k = 0; k < d; k++) v += Pnew[i * rd + r + k] * delta[k];
      M[i] = v;
    }
    let gain = M[0];
    for (let k = 0; k < d; k++) gain += delta[k] * M[r + k];
    if (gain < 1e4) {
      nu++;
      ssq += (resid * resid) / gain;
      sumlog += Math.log(gain);
    }
    if (residuals) residuals[t] = resid / Math.sqrt(gain);
    for (let i = 0; i < rd; i++) a[i] = anew[i] + (M[i] * resid) / gain;
    // P = Pnew − M·M'/gain. (M_i·M_j)/gain is the same double as (M_j·M_i)/gain (multiplication commutes
    // exactly), so each is divided once and subtracted in both triangles.
    for (let i = 0; i < rd; i++) {
      const row = i * rd;
      const mi = M[i];
      P[row + i] = Pnew[row + i] - (mi * mi) / gain;
      for (let j = i + 1; j < rd; j++) {
        const mm = (mi * M[j]) / gain;
        P[row + j] = Pnew[row + j] - mm;
        P[j * rd + i] = Pnew[j * rd + i] - mm;
      }
    }
  }
  return { ssq, sumlog, nu, residuals };
}

/**
 * h-step forecasts from the filtered state: mean Z'a_{n+k} and variance Z'P_{n+k}Z (in units of σ²),
 * k = 1..h. Does not change the model.
 */
export function kalmanForecast(
  m: ArimaStateModel,
  h: number,
): { mean: Float64Array; variance: Float64Array } {
  const { rd, r, delta } = m;
  const d = rd - r;
  let a = Float64Array.from(m.a);
  let P = Float64Array.from(m.P);
  let anew = new Float64Array(rd);
  let Pnew = new Float64Array(rd * rd);
  const work = new Float64Array(rd * rd);
  const mean = new Float64Array(h);
  const variance = new Float64Array(h);
  const Z = new Float64Array(rd);
  Z[0] = 1;
  for (let k = 0; k < d; k++) Z[r + k] = delta[k];
  for (let step = 0; step < h; step++) {
    transitionMean(m, a, anew);
    transitionCovariance(m, P, Pnew, work);
    [a, anew] = [anew, a];
    [P, Pnew] = [Pnew, P];
    let fc = 0;
    for (let i = 0; i < rd; i++) fc += Z[i] * a[i];
    let v = 0;
    for (let i = 0; i < rd; i++) for (let j = 0; j < rd; j++) v += Z[i] * Z[j] * P[i * rd + j];
    mean[step] = fc;
    variance[step] = v;
  }
  return { mean, variance };
}

/**
 * Conditional sum of squares of an ARIMA(p, d, q) on y: y differenced d times, then residuals
 * e_t = w_t − Σφ_j w_{t−j} − Σθ_j e_{t−j} from t = ncond on (earlier e are 0, MA terms reach back only to
 * ncond). Returns ssq/nu (nu = finite residuals) and the residuals (0 before ncond).
 */
export function conditionalSumOfSquares(
  y: ArrayLike<number>,
  d: number,
  phi: ArrayLike<number>,
  theta: ArrayLike<number>,
  ncond: number,
): { sigma2: number; residuals: Float64Array } {
  const n = y.length;
  const p = phi.length;
  const q = theta.length;
  const coef = new Float64Array(p + q);
  for (let j = 0; j < p; j++) coef[j] = phi[j];
  for (let j = 0; j < q; j++) coef[p + j] = theta[j];
  const w = new Float64Array(n);
  const resid = new Float64Array(n);
  return { sigma2: cssInto(y, d, coef, p, q, ncond, w, resid), residuals: resid };
}

let cssResid = new Float64Array(0);

/** w differenced d times in place (conditionalSumOfSquares' differencing). */
export function differenceInPlace(w: Float64Array, d: number): void {
  const n = w.length;
  for (let i = 0; i < d; i++) for (let t = n - 1; t > 0; t--) w[t] -= w[t - 1];
}

/**
 * conditionalSumOfSquares' σ² alone for the already differenced series w, φ = coef[0..p) and
 * θ = coef[p..p+q), its residuals in a scratch vector reused across calls (the CSS objective).
 */
export function conditionalSumOfSquaresSigma2(
  w: Float64Array,
  coef: Float64Array,
  p: number,
  q: number,
  ncond: number,
): number {
  if (cssResid.length !== w.length) cssResid = new Float64Array(w.length);
  return cssRecursion(w, coef, p, q, ncond, cssResid);
}

/** The CSS recursion of conditionalSumOfSquares into w (the differenced y) and resid (length n each). */
function cssInto(
  y: ArrayLike<number>,
  d: number,
  coef: Float64Array,
  p: number,
  q: number,
  ncond: number,
  w: Float64Array,
  resid: Float64Array,
): number {
  w.set(y);
  differenceInPlace(w, d);
  return cssRecursion(w, coef, p, q, ncond, resid);
}

/** Residuals of the differenced series w from t = ncond on into resid; returns Σe²/(finite e). */
function cssRecursion(
  w: Float64Array,
  coef: Float64Array,
  p: number,
  q: number,
  ncond: number,
  resid: Float64Array,
): number {
  const n = w.length;
  let ssq = 0;
  let nu = 0;
  for (let t = ncond; t < n; t++) {
    let v = w[t];
    for (let j = 0, k = t - 1; j < p; j++, k--) v -= coef[j] * w[k];
    // biome-ignore lint/complexity/useMathMinMax: measurably faster than Math.min in this hot loop (issue 56)
    const reach = t - ncond < q ? t - ncond : q;
    for (let j = 0, k = t - 1; j < reach; j++, k--) v -= coef[p + j] * resid[k];
    resid[t] = v;
    if (!Number.isNaN(v)) {
      nu++;
      ssq += v * v;
    }
  }
  return ssq / nu;
}
