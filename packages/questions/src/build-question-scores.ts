import {
  bootstrapByCluster,
  clusterSums,
  percentileInterval,
  replicateDifference,
} from './bootstrap-by-cluster.ts';
import type { AnswersFileFacts, ModelAnswers } from './parse-answers.ts';
import {
  type Answer,
  QUESTION_FAMILIES,
  type QuestionFamily,
  type QuestionRow,
  type QuestionsFolder,
} from './read-questions-folder.ts';
import { FAMILY_SCORERS, scoreQuestionFamily } from './score-question-family.ts';

/** One model's score on one family and window (T1 or T2). */
export interface QuestionScoreCell {
  /** Instances answered and scored. */
  n: number;
  /** Resolved instances of the family and window. */
  total: number;
  /** n / total (null when the window has no instance). */
  coverage: number | null;
  /** The model answered some but not all of the window's instances. */
  partial: boolean;
  score: number | null;
  ci_low: number | null;
  ci_high: number | null;
  /** Family-specific secondary metrics (RANK top_k_hit; EVT brier, brier_skill_vs_base_rate; …). */
  metrics: Record<string, number | null>;
}

/** One model on one family: both scored windows, the memorisation gap and the open T3 instances. */
export interface QuestionScoreRow {
  model: string;
  baseline: boolean;
  family: QuestionFamily;
  /** The headline score's name (error_reduction, normalised_spearman, brier_skill_vs_coin_flip, truncated_utility). */
  metric: string;
  T1: QuestionScoreCell;
  T2: QuestionScoreCell;
  /** S_T1 − S_T2 with its bootstrap interval (T1 and T2 resampled independently). */
  delta_t1_t2: { value: number | null; ci_low: number | null; ci_high: number | null };
  /** T3 instances are open at the run date: counted, never scored. */
  t3_pending: { open: number; answered: number };
}

/** results.json of `asof score-questions` (docs/decisions/0069). */
export interface QuestionScores {
  results_version: 1;
  questions_dataset_id: string;
  questions_name: string;
  config: { seed: number; resamples: number; ci_level: number; cluster: 'cluster_id' };
  answers: AnswersFileFacts[];
  /** Instances per family and window in the questions folder. */
  instances: { family: QuestionFamily; T1: number; T2: number; T3: number }[];
  models: { model: string; baseline: boolean }[];
  rows: QuestionScoreRow[];
}

export interface BuildQuestionScoresOptions {
  seed: number;
  resamples: number;
  ciLevel?: number;
}

/**
 * Scores the folder's baselines and the answer files' models per family and window, with cluster
 * bootstrap intervals (pure: the folder and the answers in, the results document out). A model is scored
 * on the families it answered at least one instance of.
 */
export function buildQuestionScores(
  folder: QuestionsFolder,
  answers: ModelAnswers,
  answerFiles: AnswersFileFacts[],
  options: BuildQuestionScoresOptions,
): QuestionScores {
  const ciLevel = options.ciLevel ?? 0.95;
  const byFamily = new Map<QuestionFamily, QuestionRow[]>();
  for (const q of [...folder.questions.values()].sort((a, b) => cmp(a.instance_id, b.instance_id))) {
    byFamily.set(q.family, [...(byFamily.get(q.family) ?? []), q]);
  }
  const baselineAnswers: ModelAnswers = new Map();
  for (const b of folder.baselines) {
    const m = baselineAnswers.get(b.model) ?? new Map<string, Answer>();
    m.set(b.instance_id, b.answer);
    baselineAnswers.set(b.model, m);
  }
  const models = [
    ...[...baselineAnswers.keys()].sort(cmp).map((model) => ({ model, baseline: true })),
    ...[...answers.keys()].sort(cmp).map((model) => ({ model, baseline: false })),
  ];
  const baseRate = baselineAnswers.get('base_rate');
  const rows: QuestionScoreRow[] = [];
  for (const { model, baseline } of models) {
    const given = (baseline ? baselineAnswers : answers).get(model) as Map<string, Answer>;
    for (const family of QUESTION_FAMILIES) {
      const instances = byFamily.get(family) ?? [];
      if (!instances.some((q) => given.has(q.instance_id))) continue;
      rows.push(scoreRow({ model, baseline, family, instances, given, baseRate, folder, options, ciLevel }));
    }
  }
  return {
    results_version: 1,
    questions_dataset_id: folder.manifest.dataset_id,
    questions_name: folder.manifest.name,
    config: { seed: options.seed, resamples: options.resamples, ci_level: ciLevel, cluster: 'cluster_id' },
    answers: answerFiles,
    instances: QUESTION_FAMILIES.filter((f) => byFamily.has(f)).map((family) => {
      const qs = byFamily.get(family) as QuestionRow[];
      const count = (w: string) => qs.filter((q) => q.window === w).length;
      return { family, T1: count('T1'), T2: count('T2'), T3: count('T3') };
    }),
    models,
    rows,
  };
}

function scoreRow(a: {
  model: string;
  baseline: boolean;
  family: QuestionFamily;
  instances: QuestionRow[];
  given: Map<string, Answer>;
  baseRate: Map<string, Answer> | undefined;
  folder: QuestionsFolder;
  options: BuildQuestionScoresOptions;
  ciLevel: number;
}): QuestionScoreRow {
  const scorer = FAMILY_SCORERS[a.family];
  const replicates: Record<'T1' | 'T2', (number | null)[]> = { T1: [], T2: [] };
  const cell = (window: 'T1' | 'T2'): QuestionScoreCell => {
    const inWindow = a.instances.filter((q) => q.window === window);
    const scored = scoreQuestionFamily(a.family, inWindow, a.folder.resolutions, a.given, a.baseRate);
    const sums = scored.reduce(
      (s, i) => s.map((x, j) => x + i.parts[j]),
      scored[0]?.parts.map(() => 0) ?? [],
    );
    const reps = bootstrapByCluster(clusterSums(scored), scorer.score, {
      seed: a.options.seed,
      stream: `${a.model}\u0000${a.family}\u0000${window}`,
      resamples: a.options.resamples,
    });
    replicates[window] = reps;
    const ci = scored.length > 0 ? percentileInterval(reps, a.ciLevel) : null;
    const n = scored.length;
    return {
      n,
      total: inWindow.length,
      coverage: inWindow.length > 0 ? n / inWindow.length : null,
      partial: n > 0 && n < inWindow.length,
      score: scorer.score(sums, n),
      ci_low: ci?.low ?? null,
      ci_high: ci?.high ?? null,
      metrics: scorer.metrics(sums, n),
    };
  };
  const t1 = cell('T1');
  const t2 = cell('T2');
  const gap = percentileInterval(replicateDifference(replicates.T1, replicates.T2), a.ciLevel);
  const t3 = a.instances.filter((q) => q.window === 'T3');
  return {
    model: a.model,
    baseline: a.baseline,
    family: a.family,
    metric: scorer.headline,
    T1: t1,
    T2: t2,
    delta_t1_t2: {
      value: t1.score !== null && t2.score !== null ? t1.score - t2.score : null,
      ci_low: t1.score !== null && t2.score !== null ? (gap?.low ?? null) : null,
      ci_high: t1.score !== null && t2.score !== null ? (gap?.high ?? null) : null,
    },
    t3_pending: { open: t3.length, answered: t3.filter((q) => a.given.has(q.instance_id)).length },
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
