/**
 * forecast's is.constant: every value equal to the first within all.equal's tolerance (mean absolute
 * difference ≤ 1.5e-8 relative to the mean absolute value); a series with a missing value is not constant.
 */
export function isConstantSeries(x: ArrayLike<number>): boolean {
  const n = x.length;
  if (n === 0) return true;
  let diff = 0;
  let mag = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(x[i])) return Number.isNaN(x[0]) && Array.from(x).every(Number.isNaN);
    diff += Math.abs(x[i] - x[0]);
    mag += Math.abs(x[i]);
  }
  diff /= n;
  mag /= n;
  const tol = 1.5e-8;
  return (mag > tol ? diff / mag : diff) <= tol;
}

/** KPSS critical values of the level-stationarity test (Kwiatkowski et al. 1992, Table 1) at 10, 5, 2.5, 1%. */
const KPSS_MU_CVAL = [0.347, 0.463, 0.574, 0.739];
const KPSS_LEVELS = [0.1, 0.05, 0.025, 0.01];

/**
 * The KPSS level-stationarity statistic (urca::ur.kpss, type "mu"): partial sums S of x − x̄,
 * Σ S²/n² divided by the Bartlett-weighted long-run variance with `lags` autocovariances.
 */
export function kpssStatistic(x: ArrayLike<number>, lags: number): number {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i];
  mean /= n;
  const e = Float64Array.from(x, (v) => v - mean);
  let s = 0;
  let num = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    s += e[i];
    num += s * s;
    s2 += e[i] * e[i];
  }
  num /= n * n;
  s2 /= n;
  let lr = s2;
  for (let l = 1; l <= lags; l++) {
    let cov = 0;
    for (let t = l; t < n; t++) cov += e[t] * e[t - l];
    lr += (2 / n) * (1 - l / (lags + 1)) * cov;
  }
  return num / lr;
}

/**
 * The p-value forecast::ndiffs reads off the KPSS table: linear interpolation of the level between the
 * tabulated critical values, clamped to [0.01, 0.1] outside them.
 */
export function kpssPValue(stat: number): number {
  if (stat <= KPSS_MU_CVAL[0]) return KPSS_LEVELS[0];
  for (let i = 1; i < KPSS_MU_CVAL.length; i++) {
    if (stat <= KPSS_MU_CVAL[i]) {
      const w = (stat - KPSS_MU_CVAL[i - 1]) / (KPSS_MU_CVAL[i] - KPSS_MU_CVAL[i - 1]);
      return KPSS_LEVELS[i - 1] + w * (KPSS_LEVELS[i] - KPSS_LEVELS[i - 1]);
    }
  }
  return KPSS_LEVELS[KPSS_LEVELS.length - 1];
}

/**
 * forecast::ndiffs(x, test = "kpss"): the number of first differences (≤ maxD) after which the KPSS test
 * (lags ⌊3√n/13⌋) no longer rejects level stationarity at `alpha`. Missing values are dropped first, as R
 * does; a constant series needs none.
 */
export function kpssDifferences(x: ArrayLike<number>, maxD = 2, alpha = 0.05): number {
  let w = Float64Array.from(Array.from(x).filter((v) => !Number.isNaN(v)));
  if (isConstantSeries(w)) return 0;
  const rejects = (v: Float64Array) => {
    if (v.length < 2) return false;
    const stat = kpssStatistic(v, Math.trunc((3 * Math.sqrt(v.length)) / 13));
    return Number.isFinite(stat) && kpssPValue(stat) < alpha;
  };
  let d = 0;
  let dodiff = rejects(w);
  while (dodiff && d < maxD) {
    d++;
    w = Float64Array.from({ length: w.length - 1 }, (_, i) => w[i + 1] - w[i]);
    if (isConstantSeries(w)) return d;
    dodiff = rejects(w);
  }
  return d;
}
