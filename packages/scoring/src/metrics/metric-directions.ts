/**
 * Which way is better for every metric this package computes. 'nominal' means closest to the nominal
 * level is better (interval coverage); rank on |coverage − nominal| with direction 'lower'.
 * Portfolio/backtest MDD is ≤ 0 in both FinVerse (eq. 16) and FinTSB (eq. 10), so 'higher' (closer to 0).
 */
export const METRIC_DIRECTIONS = {
  // FinVerse §3.2
  hitRate: 'higher',
  deltaHitRate: 'higher',
  delta2HitRate: 'higher',
  maseRel: 'lower',
  maseAbs: 'lower',
  maseOri: 'lower',
  informationCoefficient: 'higher',
  annualReturn: 'higher',
  annualVolatility: 'lower',
  sharpe: 'higher',
  maxDrawdown: 'higher',
  // FinTSB §4.3
  ic: 'higher',
  icir: 'higher',
  rankIc: 'higher',
  rankIcir: 'higher',
  arr: 'higher',
  avol: 'lower',
  mdd: 'higher',
  asr: 'higher',
  ir: 'higher',
  mse: 'lower',
  mae: 'lower',
  // Tycheon methodology
  rmse: 'lower',
  maseVsRandomWalk: 'lower',
  directionalAccuracy: 'higher',
  crps: 'lower',
  intervalCoverage: 'nominal',
  intervalWidth: 'lower',
  qlike: 'lower',
} as const satisfies Record<string, 'higher' | 'lower' | 'nominal'>;

export type MetricName = keyof typeof METRIC_DIRECTIONS;
