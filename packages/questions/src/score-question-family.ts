import type { Answer, QuestionFamily, QuestionRow, ResolutionRow } from './read-questions-folder.ts';

/**
 * How one family is scored (docs/decisions/0069). Every score is a function of per-instance parts summed
 * over the instances, so that a bootstrap resample of clusters only adds up each cluster's sums.
 */
export interface FamilyScorer {
  /** The `scorer` field of the family's questions. */
  scorer: string;
  /** The headline score's name in results.json and the leaderboard. */
  headline: string;
  /** The per-instance parts; `baseRate` is the base_rate baseline's answer to the instance, if any. */
  parts: (q: QuestionRow, res: ResolutionRow, answer: Answer, baseRate: number | undefined) => number[];
  /** The headline score from the parts' sums over n instances (null when undefined). */
  score: (sums: readonly number[], n: number) => number | null;
  /** The secondary metrics from the same sums. */
  metrics: (sums: readonly number[], n: number) => Record<string, number | null>;
}

/** |answer − y| / |y|: the relative error VAL's error reduction sums. */
export function relativeError(answer: number, y: number): number {
  return Math.abs(answer - y) / Math.abs(y);
}

/**
 * Error reduction 1 − Σe / Σe0 from the summed relative errors of the answers (Σe) and of the reference,
 * the close at t (Σe0): 0 is no better than the close at t, 1 exact, negative worse. Null when Σe0 = 0.
 */
export function errorReduction(sumError: number, sumReferenceError: number): number | null {
  return sumReferenceError > 0 ? 1 - sumError / sumReferenceError : null;
}

/**
 * Spearman's ρ between two orderings of the same distinct ids (no ties: 1 − 6Σd²/(n(n² − 1))), mapped to
 * [0, 1] as (ρ + 1)/2: 1 the realised order, 0 its reverse, 0.5 what a random order scores on average.
 */
export function normalisedSpearman(answer: readonly string[], realised: readonly string[]): number {
  const n = realised.length;
  const rank = new Map(realised.map((id, i) => [id, i]));
  let d2 = 0;
  for (let i = 0; i < n; i++) {
    const d = i - (rank.get(answer[i]) as number);
    d2 += d * d;
  }
  const rho = 1 - (6 * d2) / (n * (n * n - 1));
  return (rho + 1) / 2;
}

/** |top-K of the answer ∩ top-K realised| / K. */
export function topKHit(answer: readonly string[], realised: readonly string[], k: number): number {
  const top = new Set(realised.slice(0, k));
  return answer.slice(0, k).filter((id) => top.has(id)).length / k;
}

/** The squared error of a probability p for an outcome o ∈ {0, 1}. */
export function brierTerm(p: number, o: number): number {
  return (p - o) * (p - o);
}

/** max(0, 1 − |answer − y| / s): FUND's per-instance utility, truncated at 0. */
export function truncatedUtility(answer: number, y: number, scale: number): number {
  return Math.max(0, 1 - Math.abs(answer - y) / scale);
}

const mean = (sum: number, n: number): number | null => (n > 0 ? sum / n : null);

/** The Brier score of always answering 0.5. */
const COIN_FLIP_BRIER = 0.25;

export const FAMILY_SCORERS: Record<QuestionFamily, FamilyScorer> = {
  VAL: {
    scorer: 'error_reduction',
    headline: 'error_reduction',
    parts: (q, res, a) => {
      const y = res.value as number;
      return [relativeError(a as number, y), relativeError(q.scorer_params.reference as number, y)];
    },
    score: (s, n) => (n > 0 ? errorReduction(s[0], s[1]) : null),
    metrics: (s, n) => ({ mean_relative_error: mean(s[0], n), mean_relative_error_reference: mean(s[1], n) }),
  },
  RANK: {
    scorer: 'spearman_topk',
    headline: 'normalised_spearman',
    parts: (q, res, a) => {
      const realised = res.ranking as string[];
      const answer = a as string[];
      return [normalisedSpearman(answer, realised), topKHit(answer, realised, q.scorer_params.k as number)];
    },
    score: (s, n) => mean(s[0], n),
    metrics: (s, n) => ({ top_k_hit: mean(s[1], n) }),
  },
  EVT: {
    scorer: 'brier',
    headline: 'brier_skill_vs_coin_flip',
    // [b, 1 if the base rate answered, b on those instances, the base rate's b on them]
    parts: (_q, res, a, baseRate) => {
      const b = brierTerm(a as number, res.value as number);
      if (baseRate === undefined) return [b, 0, 0, 0];
      return [b, 1, b, brierTerm(baseRate, res.value as number)];
    },
    score: (s, n) => (n > 0 ? 1 - s[0] / n / COIN_FLIP_BRIER : null),
    metrics: (s, n) => ({
      brier: mean(s[0], n),
      brier_skill_vs_base_rate: s[1] > 0 && s[3] > 0 ? 1 - s[2] / s[3] : null,
      base_rate_instances: n > 0 ? s[1] : null,
    }),
  },
  FUND: {
    scorer: 'truncated_utility',
    headline: 'truncated_utility',
    parts: (q, res, a) => {
      const y = res.value as number;
      const s = q.scorer_params.scale as number;
      return [truncatedUtility(a as number, y, s), Math.abs((a as number) - y) / s];
    },
    score: (s, n) => mean(s[0], n),
    metrics: (s, n) => ({ mean_scaled_error: mean(s[1], n) }),
  },
};

/** One scored instance: its cluster and its parts. */
export interface ScoredInstance {
  cluster_id: string;
  parts: number[];
}

/**
 * The parts of every answered, resolved instance of one family (instances in instance_id order), for one
 * model's answers; unanswered instances are left out (coverage counts them).
 */
export function scoreQuestionFamily(
  family: QuestionFamily,
  instances: readonly QuestionRow[],
  resolutions: ReadonlyMap<string, ResolutionRow>,
  answers: ReadonlyMap<string, Answer>,
  baseRate: ReadonlyMap<string, Answer> | undefined,
): ScoredInstance[] {
  const scorer = FAMILY_SCORERS[family];
  const out: ScoredInstance[] = [];
  for (const q of instances) {
    const answer = answers.get(q.instance_id);
    const res = resolutions.get(q.instance_id);
    if (answer === undefined || res?.status !== 'resolved') continue;
    const br = baseRate?.get(q.instance_id);
    out.push({
      cluster_id: q.cluster_id,
      parts: scorer.parts(q, res, answer, typeof br === 'number' ? br : undefined),
    });
  }
  return out;
}
