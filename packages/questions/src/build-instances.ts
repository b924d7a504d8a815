import { microsToIso } from '@asof/calendar';
import { canonicalJson, sha256Hex } from '@asof/manifest';
import {
  ANSWER_TYPE_OF,
  type Family,
  type InputSpec,
  type InstanceDraft,
  SCORER_OF,
} from './question-candidate.ts';
import type { Labelled } from './sample-candidates.ts';

/** A question as a system under test reads it (questions.jsonl; packages/questions/README.md). */
export interface PublicQuestion {
  instance_id: string;
  family: Family;
  t: string;
  window: 'T1' | 'T2' | 'T3';
  resolves_at: string | null;
  question: string;
  answer_type: 'number' | 'probability' | 'ranking';
  resolution_rule: 'first_release';
  scorer: string;
  scorer_params: Record<string, number>;
  cluster_id: string;
  subjects: string[];
  target: string;
  horizon: number | null;
  reference_value: number | null;
  reference_at: string | null;
  inputs: string[];
}

/** The key of one instance (resolutions.jsonl). */
export interface ResolutionRow {
  instance_id: string;
  status: 'resolved' | 'open';
  value: number | null;
  ranking: string[] | null;
  returns: Record<string, number> | null;
  first_release_at: string | null;
  latest_value: number | null;
  latest_ranking: string[] | null;
  moved: boolean | null;
  flipped: boolean | null;
  /** EVT release events: the first-release and latest values compared. */
  revision_note: string | null;
}

export interface BaselineRow {
  model: string;
  instance_id: string;
  answer: number | string[];
}

export interface Instance {
  question: PublicQuestion;
  resolution: ResolutionRow;
  baselines: BaselineRow[];
  inputs: InputSpec[];
  t: number;
}

/**
 * The sampled candidates as instances, sorted by instance_id. The id is the first 32 hex digits of the
 * sha256 of the canonical JSON of the question without its id, window and resolves_at: the question's
 * content, so an open instance keeps its id when a later run resolves it.
 */
export function buildInstances(kept: readonly Labelled[]): Instance[] {
  const out = kept.map(({ candidate, window }) => {
    const d: InstanceDraft = candidate.make();
    const content = {
      family: candidate.family,
      t: microsToIso(candidate.t),
      question: d.question,
      answer_type: ANSWER_TYPE_OF[candidate.family],
      resolution_rule: 'first_release' as const,
      scorer: SCORER_OF[candidate.family],
      scorer_params: d.scorerParams,
      cluster_id: d.clusterId,
      subjects: d.subjects,
      target: d.target,
      horizon: d.horizon,
      reference_value: d.reference,
      reference_at: d.referenceAt === null ? null : microsToIso(d.referenceAt),
      inputs: [...new Set(d.inputs.map((i) => i.seriesId))].sort(),
    };
    const instance_id = sha256Hex(canonicalJson(content)).slice(0, 32);
    const resolvesAt = candidate.resolvesAt === null ? null : microsToIso(candidate.resolvesAt);
    const r = d.resolution;
    return {
      question: { instance_id, window, resolves_at: resolvesAt, ...content },
      resolution: {
        instance_id,
        status: r === null ? 'open' : 'resolved',
        value: r?.value ?? null,
        ranking: r?.ranking ?? null,
        returns: r?.returns ?? null,
        first_release_at: r === null ? null : resolvesAt,
        latest_value: r?.latestValue ?? null,
        latest_ranking: r?.latestRanking ?? null,
        moved: r?.moved ?? null,
        flipped: r?.flipped ?? null,
        revision_note: r?.note ?? null,
      },
      baselines: d.baselines.map((b) => ({ model: b.model, instance_id, answer: b.answer })),
      inputs: d.inputs,
      t: candidate.t,
    } satisfies Instance;
  });
  return out.sort((a, b) => (a.question.instance_id < b.question.instance_id ? -1 : 1));
}
