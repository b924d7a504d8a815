import { type CutoffWindow, labelWindow } from '@asof/calendar';
import { type GenerationContext, sampleKey } from './generation-context.ts';
import type { Candidate, Family } from './question-candidate.ts';

export interface Labelled {
  candidate: Candidate;
  window: Exclude<CutoffWindow, 'straddles_cutoff'>;
  /** The stratum the sampler balances within a family (EVT: close, macro, revenue). */
  stratum: string;
}

export interface SampleCounts {
  /** family → window → candidates, and how many straddled the cutoff (asked before it, answered after). */
  candidates: Record<string, Record<string, number>>;
}

/**
 * Keeps up to `perWindow` candidates per family and window, in the order of sha256(seed | key): the same
 * seed gives the same instances whatever order candidates were made in. Within a family, strata take turns
 * (EVT's close, macro and revenue events), so the many weekly close events do not crowd out the few
 * releases.
 */
export function sampleCandidates(
  strata: { family: Family; stratum: string; candidates: Candidate[] }[],
  ctx: GenerationContext,
  perWindow: number,
  counts: SampleCounts,
): Labelled[] {
  const groups = new Map<string, Map<string, Labelled[]>>();
  for (const s of strata) {
    counts.candidates[s.family] ??= {};
    const byFamily = counts.candidates[s.family];
    for (const candidate of s.candidates) {
      const window = labelWindow(candidate.t, candidate.resolvesAt, ctx.cutoff, ctx.runDate);
      byFamily[window] = (byFamily[window] ?? 0) + 1;
      if (window === 'straddles_cutoff') continue;
      const groupKey = `${s.family}|${window}`;
      const group = groups.get(groupKey) ?? new Map<string, Labelled[]>();
      groups.set(groupKey, group);
      const list = group.get(s.stratum) ?? [];
      group.set(s.stratum, list);
      list.push({ candidate, window, stratum: s.stratum });
    }
  }
  const kept: Labelled[] = [];
  for (const groupKey of [...groups.keys()].sort()) {
    const group = groups.get(groupKey) as Map<string, Labelled[]>;
    const queues = [...group.keys()].sort().map((stratum) =>
      (group.get(stratum) as Labelled[])
        .map((l) => ({ l, k: sampleKey(ctx.seed, l.candidate.key) }))
        .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0))
        .map((x) => x.l),
    );
    let taken = 0;
    for (let round = 0; taken < perWindow && queues.some((q) => q.length > round); round++) {
      for (const q of queues) {
        if (taken < perWindow && round < q.length) {
          kept.push(q[round]);
          taken++;
        }
      }
    }
  }
  return kept;
}
