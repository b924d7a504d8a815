export type Family = 'VAL' | 'RANK' | 'EVT' | 'FUND';
export const FAMILIES: readonly Family[] = ['VAL', 'RANK', 'EVT', 'FUND'];

export type Scorer = 'error_reduction' | 'spearman_topk' | 'brier' | 'truncated_utility';
export const SCORER_OF: Record<Family, Scorer> = {
  VAL: 'error_reduction',
  RANK: 'spearman_topk',
  EVT: 'brier',
  FUND: 'truncated_utility',
};
export const ANSWER_TYPE_OF: Record<Family, 'number' | 'probability' | 'ranking'> = {
  VAL: 'number',
  RANK: 'ranking',
  EVT: 'probability',
  FUND: 'number',
};

/** One series an instance serves: its rows with available_at <= t, from `fromTs` (epoch µs) on when set. */
export interface InputSpec {
  seriesId: string;
  fromTs: number | null;
}

/** What resolved an instance, on first releases, and the same quantity on the latest values at r. */
export interface Resolution {
  value: number | null;
  ranking: string[] | null;
  returns: Record<string, number> | null;
  latestValue: number | null;
  latestRanking: string[] | null;
  moved: boolean;
  flipped: boolean | null;
  /** The values behind a moved event (first releases, then latest values), for the revision examples. */
  note?: string;
}

/** A number's resolution: period j's first release, and its latest value at r beside it (FUND, VAL). */
export function valueResolution(
  p: { firstValue: Float64Array; latestValue: Float64Array },
  j: number,
): Resolution {
  return {
    value: p.firstValue[j],
    ranking: null,
    returns: null,
    latestValue: Number.isNaN(p.latestValue[j]) ? null : p.latestValue[j],
    latestRanking: null,
    moved: p.latestValue[j] !== p.firstValue[j],
    flipped: null,
  };
}

/** An event's resolution: its outcome on first releases and on the latest values (EVT). */
export function eventResolution(first: boolean, latest: boolean, moved: boolean, note?: string): Resolution {
  return {
    value: first ? 1 : 0,
    ranking: null,
    returns: null,
    latestValue: latest ? 1 : 0,
    latestRanking: null,
    moved,
    flipped: first !== latest,
    ...(note === undefined ? {} : { note }),
  };
}

export type BaselineAnswer = { model: string; answer: number | string[] };

/** Everything an instance holds, made only for the candidates the sampler keeps. */
export interface InstanceDraft {
  subjects: string[];
  target: string;
  horizon: number | null;
  reference: number | null;
  referenceAt: number | null;
  question: string;
  scorerParams: Record<string, number>;
  clusterId: string;
  inputs: InputSpec[];
  /** null when open at the run date (T3). */
  resolution: Resolution | null;
  baselines: BaselineAnswer[];
}

/**
 * A question that could be asked: its family, its forecast instant t, when its answer was first public
 * (null: not by the run date) and a key naming it among its family's candidates (the sampler orders
 * candidates by a hash of seed and key). The key and everything `make` puts in the public question depend
 * only on what was public at t, and on the times (not the values) of later releases: the canary test holds
 * generation to that.
 */
export interface Candidate {
  family: Family;
  key: string;
  t: number;
  resolvesAt: number | null;
  make: () => InstanceDraft;
}

export const DAY_US = 86_400_000_000;

/** A number as question text shows it: 6 significant digits, whole numbers in full (5240000000, not 5.24e+9). */
export function shownNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1e6) return Math.round(v).toString();
  return String(Number(v.toPrecision(6)));
}
