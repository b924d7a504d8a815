import type { Frequency } from '@asof/schema';
import type { CharacteristicsPool } from './characteristics/characteristics-pool.ts';

/** Knobs of SPEC §7's segmentation and labelling; every field has the SPEC default. */
export interface SegmentOptions {
  /** Steps per segment by frequency; 0 (or absent, for A) skips the frequency. */
  lengths?: Partial<Record<Frequency, number>>;
  /** The Monday the calendar grids count from (ISO date). */
  epoch?: string;
  /** Share of a segment's grid steps that must be present for it to be labelled. */
  minCoverage?: number;
  /** Threshold mode: positive-return share at or above which a segment is an uptrend. */
  upShare?: number;
  /** Threshold mode: positive-return share at or below which a segment is a downtrend. */
  downShare?: number;
  /** Outlier threshold in standard deviations of the segment's returns. */
  sigma?: number;
  /** Consecutive outliers that make a segment extreme. */
  runLength?: number;
  /** Quota mode: share of a cross-section each pattern gets. */
  quota?: number;
  /**
   * Worker threads computing the sequence characteristics; 0 computes them inline. Default: DuckDB's
   * thread count once the placed series hold WORKERS_FROM_ROWS observation rows, else 0. The results do not depend on it.
   */
  workers?: number;
  /**
   * Characteristics workers the caller started earlier (CharacteristicsPool.start(), e.g. while its
   * sources ran): used instead of `workers`, and left for the caller to close. The results do not depend
   * on it either.
   */
  pool?: CharacteristicsPool;
  /** Progress lines. */
  log?: (line: string) => void;
}

export const DEFAULT_SEGMENT_LENGTHS: Readonly<Record<Frequency, number>> = {
  BD: 250,
  D: 365,
  W: 104,
  M: 60,
  Q: 20,
  A: 0,
};

export const DEFAULT_GRID_EPOCH = '2000-01-03';

/** The fewest returns a segment needs: the ADF regression ('ct', AIC) is not defined below 8 values. */
export const MIN_SEGMENT_RETURNS = 8;

/** The `$params` of the segment models. */
export function segmentParams(options: SegmentOptions = {}): Record<string, number | string> {
  const len = { ...DEFAULT_SEGMENT_LENGTHS, ...options.lengths };
  return {
    len_bd: len.BD,
    len_d: len.D,
    len_w: len.W,
    len_m: len.M,
    len_q: len.Q,
    len_a: len.A,
    epoch: options.epoch ?? DEFAULT_GRID_EPOCH,
    min_coverage: options.minCoverage ?? 0.9,
    min_returns: MIN_SEGMENT_RETURNS,
    up_share: options.upShare ?? 0.55,
    down_share: options.downShare ?? 0.45,
    sigma: options.sigma ?? 3,
    run_length: options.runLength ?? 3,
    quota: options.quota ?? 0.2,
  };
}
