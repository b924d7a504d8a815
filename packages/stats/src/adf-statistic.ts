import { InputError } from '@asof/schema';
import { gramCholesky } from './gram-cholesky.ts';
import { householderQr } from './householder-qr.ts';

export type AdfRegression = 'c' | 'ct';

export interface AdfOptions {
  /**
   * Deterministic terms: 'c' constant, 'ct' constant + linear trend. Default 'ct' as SPEC §7 (note
   * statsmodels' own default is 'c').
   */
  regression?: AdfRegression;
  /** Highest lag of Δx considered; default min(⌈12·(n/100)^{1/4}⌉, ⌊n/2⌋ − ntrend − 1) as statsmodels. */
  maxLag?: number;
  /** 'AIC' (default) picks the lag by AIC; null uses maxLag lags. */
  autolag?: 'AIC' | null;
}

export interface AdfResult {
  /** t statistic of the lagged level; NaN when the design is rank deficient (e.g. constant input). */
  stat: number;
  /** Number of lagged differences in the final regression (−1 if the lag search itself was rank deficient). */
  usedLag: number;
  /** Rows of the final regression: n − 1 − usedLag (0 if the lag search was rank deficient). */
  nobs: number;
}

const LOG_2PI = Math.log(2 * Math.PI);
/** Below this 1 − R² for any column, Gram/Cholesky hands over to Householder QR (see gram-cholesky.ts). */
const MIN_PIVOT_RATIO = 1e-5;

/** Which factorisation the fit uses; 'auto' = Gram/Cholesky, Householder QR when ill-conditioned. */
export type AdfMethod = 'auto' | 'qr';

// Reused across calls: the analysis runs ~10^5–10^6 ADF tests of the same few lengths, and allocating
// a fresh design matrix each time would dominate the runtime for short series.
let scratch = new Float64Array(0);
let gram = new Float64Array(0);
let dxScratch = new Float64Array(0);
let dxcScratch = new Float64Array(0);
let xcScratch = new Float64Array(0);
let colSum = new Float64Array(0);
let colTrend = new Float64Array(0);
let colLevel = new Float64Array(0);
let colResp = new Float64Array(0);
/** Output of a factorisation: z_k = (Qᵀy)_k and R_kk for the p regressors, and the full-model SSR. */
let zOut = new Float64Array(0);
let rOut = new Float64Array(0);

function ensureScratch(n: number, maxCols: number, needDesign: boolean): void {
  if (needDesign && scratch.length < (n - 1) * maxCols) scratch = new Float64Array((n - 1) * maxCols);
  if (gram.length < maxCols * maxCols) gram = new Float64Array(maxCols * maxCols);
  if (dxScratch.length < n) {
    dxScratch = new Float64Array(n);
    dxcScratch = new Float64Array(n);
    xcScratch = new Float64Array(n);
  }
  if (zOut.length < maxCols) {
    zOut = new Float64Array(maxCols);
    rOut = new Float64Array(maxCols);
    colSum = new Float64Array(maxCols);
    colTrend = new Float64Array(maxCols);
    colLevel = new Float64Array(maxCols);
    colResp = new Float64Array(maxCols);
  }
}

/**
 * Fills the column-major design for lag order `lags` on rows t = sampleStart … n−2 (t indexes Δx):
 * deterministic columns first, then the level x_t and the lagged differences in the order the caller
 * needs, and y = Δx_t last. The trend is 1…m like statsmodels' add_trend (the t statistic and AIC are
 * invariant to its scaling anyway).
 */
function fillDesign(
  a: Float64Array,
  x: Float64Array,
  dx: Float64Array,
  sampleStart: number,
  m: number,
  lags: number,
  ntrend: number,
  levelLast: boolean,
): number {
  let col = 0;
  if (ntrend >= 1) {
    a.fill(1, 0, m);
    col++;
  }
  if (ntrend >= 2) {
    const o = col * m;
    for (let r = 0; r < m; r++) a[o + r] = r + 1;
    col++;
  }
  const levelCol = levelLast ? col + lags : col;
  const firstLagCol = levelLast ? col : col + 1;
  {
    const o = levelCol * m;
    for (let r = 0; r < m; r++) a[o + r] = x[sampleStart + r];
  }
  for (let j = 1; j <= lags; j++) {
    const o = (firstLagCol + j - 1) * m;
    const from = sampleStart - j;
    for (let r = 0; r < m; r++) a[o + r] = dx[from + r];
  }
  const cols = ntrend + 1 + lags + 1;
  const o = (cols - 1) * m;
  for (let r = 0; r < m; r++) a[o + r] = dx[sampleStart + r];
  return cols;
}

/** Householder path: z, R_kk and SSR into zOut/rOut; returns SSR or NaN when rank deficient. */
function factorQr(
  x: Float64Array,
  dx: Float64Array,
  sampleStart: number,
  m: number,
  lags: number,
  ntrend: number,
  levelLast: boolean,
): number {
  const cols = ntrend + lags + 2;
  if (scratch.length < m * cols) scratch = new Float64Array(m * cols);
  const a = scratch;
  fillDesign(a, x, dx, sampleStart, m, lags, ntrend, levelLast);
  if (!householderQr(a, m, cols, rOut)) return Number.NaN;
  const p = cols - 1;
  const zo = p * m;
  for (let k = 0; k < p; k++) zOut[k] = a[zo + k];
  let ssr = 0;
  for (let i = p; i < m; i++) ssr += a[zo + i] * a[zo + i];
  return ssr;
}

/**
 * Gram path: builds [X | y]ᵀ[X | y] in O(m·c) and factors it. The inputs are centred first (Δx and x
 * by their means, the trend about its midpoint) — shifts the constant column absorbs, so t statistic
 * and SSR are unchanged — which keeps the Gram matrix far better conditioned than raw levels would.
 * The Δx·Δx block is filled by sliding each window one step (exact adds/removes), so only its first
 * row costs O(m) per entry. Returns SSR, or −1 when the design is too ill-conditioned for this path.
 */
function factorGram(
  xc: Float64Array,
  dxc: Float64Array,
  dxMean: number,
  sampleStart: number,
  m: number,
  lags: number,
  ntrend: number,
  levelLast: boolean,
): number {
  const s = sampleStart;
  const mid = (m - 1) / 2;
  // Products of each Δx column j = 0 (the response) … lags with the response: the only O(m·lags) part.
  // Four lags per pass share the response load and give the CPU four independent add chains (about
  // twice as fast as one lag at a time in V8); each sum is still accumulated in plain index order.
  let j0 = 0;
  for (; j0 + 3 <= lags; j0 += 4) {
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    const from = s - j0;
    for (let r = 0; r < m; r++) {
      const y = dxc[s + r];
      const q = from + r;
      a0 += y * dxc[q];
      a1 += y * dxc[q - 1];
      a2 += y * dxc[q - 2];
      a3 += y * dxc[q - 3];
    }
    colResp[j0] = a0;
    colResp[j0 + 1] = a1;
    colResp[j0 + 2] = a2;
    colResp[j0 + 3] = a3;
  }
  for (; j0 <= lags; j0++) {
    const from = s - j0;
    let d0 = 0;
    for (let r = 0; r < m; r++) d0 += dxc[s + r] * dxc[from + r];
    colResp[j0] = d0;
  }
  // Sum and centred-trend products of each Δx column, sliding the window one step back per lag:
  // S_j = S_{j−1} + Δx[s−j] − Δx[s−j+m], T_j = T_{j−1} + S_{j−1} − (m − mid)·Δx[s−j+m] − mid·Δx[s−j].
  {
    let sum = 0;
    let tr = 0;
    for (let r = 0; r < m; r++) {
      const v = dxc[s + r];
      sum += v;
      tr += (r - mid) * v;
    }
    colSum[0] = sum;
    colTrend[0] = tr;
    for (let j = 1; j <= lags; j++) {
      const enter = dxc[s - j];
      const leave = dxc[s - j + m];
      colTrend[j] = colTrend[j - 1] + colSum[j - 1] - (m - mid) * leave - mid * enter;
      colSum[j] = colSum[j - 1] + enter - leave;
    }
  }
  // Level × Δx_{t−j}: with x_{t+1} − x_t = Δx_t = Δxc_t + μ, shifting the level back one step turns
  // P_j = Σ_r xc[s+r]·Δxc[s+r−j] into P_{j−1} plus response products already computed:
  // P_j = P_{j−1} + colResp[j−1] + μ·colSum[j−1] + xc[s]·Δxc[s−j] − xc[s+m]·Δxc[s+m−j]. Note xc[s+m]
  // = xc[n−1] for the autolag sample — the last level, which no row regresses on but x still holds.
  {
    let p0 = 0;
    for (let r = 0; r < m; r++) p0 += xc[s + r] * dxc[s + r];
    colLevel[0] = p0;
    for (let j = 1; j <= lags; j++) {
      colLevel[j] =
        colLevel[j - 1] +
        colResp[j - 1] +
        dxMean * colSum[j - 1] +
        xc[s] * dxc[s - j] -
        xc[s + m] * dxc[s + m - j];
    }
  }
  let xSum = 0;
  let xTrend = 0;
  let xx = 0;
  let tt = 0;
  for (let r = 0; r < m; r++) {
    const v = xc[s + r];
    const t = r - mid;
    xSum += v;
    xTrend += t * v;
    xx += v * v;
    tt += t * t;
  }

  const c = ntrend + lags + 2;
  const g = gram;
  // Column indices in the design.
  const lagCol = (j: number): number => (j === 0 ? c - 1 : levelLast ? ntrend + j - 1 : ntrend + j);
  const levelCol = levelLast ? c - 2 : ntrend;
  const set = (i: number, j: number, v: number): void => {
    if (i >= j) g[i * c + j] = v;
    else g[j * c + i] = v;
  };
  if (ntrend >= 1) {
    set(0, 0, m);
    set(0, levelCol, xSum);
    for (let j = 0; j <= lags; j++) set(0, lagCol(j), colSum[j]);
  }
  if (ntrend >= 2) {
    let tSum = 0;
    for (let r = 0; r < m; r++) tSum += r - mid;
    set(1, 0, tSum);
    set(1, 1, tt);
    set(1, levelCol, xTrend);
    for (let j = 0; j <= lags; j++) set(1, lagCol(j), colTrend[j]);
  }
  set(levelCol, levelCol, xx);
  for (let j = 0; j <= lags; j++) set(levelCol, lagCol(j), colLevel[j]);
  // Δx block: G(i, j) = Σ_r Δx[s−i+r]·Δx[s−j+r] = G(i−1, j−1) + Δx[s−i]Δx[s−j] − Δx[s−i+m]Δx[s−j+m].
  for (let j = 0; j <= lags; j++) set(lagCol(0), lagCol(j), colResp[j]);
  for (let d = 0; d <= lags; d++) {
    let v = colResp[d];
    for (let i = 1; i + d <= lags; i++) {
      const j = i + d;
      v += dxc[s - i] * dxc[s - j] - dxc[s - i + m] * dxc[s - j + m];
      set(lagCol(i), lagCol(j), v);
    }
  }

  if (!gramCholesky(g, c, MIN_PIVOT_RATIO)) return -1;
  const p = c - 1;
  const ry = p * c;
  for (let k = 0; k < p; k++) {
    zOut[k] = g[ry + k];
    rOut[k] = g[k * c + k];
  }
  return g[ry + p] * g[ry + p];
}

function factor(
  method: AdfMethod,
  x: Float64Array,
  dx: Float64Array,
  xc: Float64Array,
  dxc: Float64Array,
  dxMean: number,
  sampleStart: number,
  m: number,
  lags: number,
  ntrend: number,
  levelLast: boolean,
): number {
  if (method === 'auto') {
    const ssr = factorGram(xc, dxc, dxMean, sampleStart, m, lags, ntrend, levelLast);
    if (ssr >= 0) return ssr;
  }
  return factorQr(x, dx, sampleStart, m, lags, ntrend, levelLast);
}

function checkInput(x: Float64Array): void {
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i])) {
      throw new InputError(
        'ADF_NONFINITE_INPUT',
        `adfStatistic: x[${i}] is ${x[i]}, expected a finite number; drop missing steps before testing (asof never emits NaN observations, so a NaN here comes from the caller's own arithmetic).`,
        { context: { index: i, value: x[i] } },
      );
    }
  }
}

/**
 * Augmented Dickey–Fuller t statistic, matching statsmodels `adfuller(x, regression, autolag='AIC')`
 * (checked against statsmodels 0.13.5 in reference/vectors.json):
 * Δx_t = α [+ βt] + γ x_{t−1} + Σ_{j=1..p} δ_j Δx_{t−j} + ε_t, statistic = t(γ).
 *
 * Lag selection as statsmodels `_autolag`: every p = 0…maxLag is fitted on the common sample of the
 * largest lag (n − 1 − maxLag rows), the smallest AIC = nobs·(log 2π + log(SSR/nobs) + 1) + 2k wins
 * (ties to the smaller p), then the chosen p is refitted on its own, longer sample.
 *
 * The default maxLag uses ⌈·⌉ as statsmodels does (SPEC §7 writes ⌊·⌋; statsmodels is the
 * definition it points to, so the ceiling is kept and the spec's bracket is taken as a typo).
 */
export function adfStatistic(x: Float64Array, options: AdfOptions = {}): AdfResult {
  return adfStatisticWith(x, options, 'auto');
}

/**
 * adfStatistic with the factorisation pinned: 'qr' forces Householder on the literal design (tests
 * use it to check both paths); 'auto' is what adfStatistic uses.
 */
export function adfStatisticWith(x: Float64Array, options: AdfOptions, method: AdfMethod): AdfResult {
  const regression = options.regression ?? 'ct';
  if (regression !== 'c' && regression !== 'ct') {
    throw new InputError(
      'ADF_BAD_OPTION',
      `adfStatistic: regression is ${JSON.stringify(regression)}, expected 'c' or 'ct'.`,
      {
        context: { regression },
      },
    );
  }
  const autolag = options.autolag === undefined ? 'AIC' : options.autolag;
  if (autolag !== 'AIC' && autolag !== null) {
    throw new InputError(
      'ADF_BAD_OPTION',
      `adfStatistic: autolag is ${JSON.stringify(autolag)}, expected 'AIC' or null.`,
      {
        context: { autolag },
      },
    );
  }
  const n = x.length;
  const ntrend = regression.length;
  const lagCap = Math.floor(n / 2) - ntrend - 1;
  let maxLag: number;
  if (options.maxLag === undefined) {
    maxLag = Math.min(lagCap, Math.ceil(12 * (n / 100) ** 0.25));
    if (maxLag < 0) {
      throw new InputError(
        'ADF_TOO_SHORT',
        `adfStatistic: series has ${n} values, too short for regression '${regression}' (needs at least ${2 * (ntrend + 1)}); test longer segments.`,
        { context: { n, regression } },
      );
    }
  } else {
    maxLag = options.maxLag;
    if (!Number.isInteger(maxLag) || maxLag < 0 || maxLag > lagCap) {
      throw new InputError(
        'ADF_BAD_OPTION',
        `adfStatistic: maxLag is ${maxLag}, expected an integer in 0…${lagCap} (⌊n/2⌋ − ntrend − 1 for n = ${n}, regression '${regression}').`,
        { context: { maxLag, n, regression } },
      );
    }
  }
  checkInput(x);

  const maxCols = ntrend + maxLag + 2;
  ensureScratch(n, maxCols, method === 'qr');
  // Raw Δx and x feed the Householder path, which mirrors statsmodels' design literally; centred copies
  // feed the Gram path (see factorGram).
  const dx = dxScratch;
  const dxc = dxcScratch;
  const xc = xcScratch;
  let dxMean = 0;
  for (let i = 0; i < n - 1; i++) {
    dx[i] = x[i + 1] - x[i];
    dxMean += dx[i];
  }
  dxMean /= n - 1;
  let xMean = 0;
  for (let i = 0; i < n; i++) xMean += x[i];
  xMean /= n;
  for (let i = 0; i < n - 1; i++) dxc[i] = dx[i] - dxMean;
  for (let i = 0; i < n; i++) xc[i] = x[i] - xMean;

  let usedLag = maxLag;
  if (autolag === 'AIC') {
    const m = n - 1 - maxLag;
    let ssr = factor(method, x, dx, xc, dxc, dxMean, maxLag, m, maxLag, ntrend, false);
    if (Number.isNaN(ssr)) return { stat: Number.NaN, usedLag: -1, nobs: 0 };
    const p = ntrend + maxLag + 1;
    // Walk the nested models from largest to smallest: SSR(k columns) = SSR(k+1) + z_k².
    let bestAic = Number.POSITIVE_INFINITY;
    let bestLag = maxLag;
    for (let k = p; k >= ntrend + 1; k--) {
      if (k < p) ssr += zOut[k] * zOut[k];
      const aic = m * (LOG_2PI + Math.log(ssr / m) + 1) + 2 * k;
      if (aic <= bestAic) {
        bestAic = aic;
        bestLag = k - ntrend - 1;
      }
    }
    usedLag = bestLag;
  }

  const m = n - 1 - usedLag;
  const p = ntrend + usedLag + 1;
  if (m <= p) return { stat: Number.NaN, usedLag, nobs: m };
  const ssr = factor(method, x, dx, xc, dxc, dxMean, usedLag, m, usedLag, ntrend, true);
  if (Number.isNaN(ssr)) return { stat: Number.NaN, usedLag, nobs: m };
  // With the level as the last regressor, γ̂ = z/R and se(γ̂) = σ̂/|R|, so t = sign(R)·z/σ̂.
  const rLevel = rOut[p - 1];
  const z = zOut[p - 1];
  const sigma = Math.sqrt(ssr / (m - p));
  const stat = (rLevel >= 0 ? z : -z) / sigma;
  return { stat, usedLag, nobs: m };
}
