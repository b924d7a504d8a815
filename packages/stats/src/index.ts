// @asof/stats: the pure numerics of the patterns, the scorer and the baselines (issue 53 item 4), each
// with its reference tests. No domain types: arrays and numbers in, numbers out.
export { adfStatistic, adfStatisticWith } from './adf-statistic.ts';
export { STATS_ERRORS } from './error-codes.ts';
export { fftInPlace, fftPlan } from './fft.ts';
export { forecastability } from './forecastability.ts';
export { gramCholesky } from './gram-cholesky.ts';
export { householderQr } from './householder-qr.ts';
export { isConstantSeries, kpssDifferences, kpssStatistic } from './kpss-differences.ts';
export { lag1Autocorrelation } from './lag1-autocorrelation.ts';
export { logGamma } from './log-gamma.ts';
export { type BfgsOptions, minimizeBfgs, numericHessian } from './minimize-bfgs.ts';
export { minimizeBox } from './minimize-box.ts';
export { normalCdf, normalPdf } from './normal-cdf.ts';
export { normalQuantile } from './normal-quantile.ts';
export { periodogram } from './periodogram.ts';
export { regularizedIncompleteBeta } from './regularized-incomplete-beta.ts';
export { returnMoments } from './return-moments.ts';
export { sequenceCharacteristics } from './sequence-characteristics.ts';
export { studentTCdf, studentTSurvival } from './student-t-cdf.ts';
