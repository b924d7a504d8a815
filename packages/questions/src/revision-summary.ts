import type { Instance } from './build-instances.ts';
import { shownNumber } from './question-candidate.ts';

/**
 * How resolving on revised values instead of first releases would change the answers (issue 55): per
 * family, the resolved instances, those whose resolving value moved (a later vintage or restatement
 * changed it) and those whose answer would flip (an EVT outcome, a RANK top-K set); and up to 3 examples
 * per family, flips first, each naming the instance and both values.
 */
export function revisionSummary(instances: readonly Instance[]) {
  const out: Record<string, { resolved: number; moved: number; flipped: number; examples: string[] }> = {};
  for (const i of instances) {
    const r = i.resolution;
    if (r.status !== 'resolved') continue;
    out[i.question.family] ??= { resolved: 0, moved: 0, flipped: 0, examples: [] };
    const cell = out[i.question.family];
    cell.resolved++;
    if (r.moved) cell.moved++;
    if (r.flipped) cell.flipped++;
  }
  for (const family of Object.keys(out)) {
    const moved = instances.filter((i) => i.question.family === family && i.resolution.moved);
    const ordered = [
      ...moved.filter((i) => i.resolution.flipped),
      ...moved.filter((i) => !i.resolution.flipped),
    ];
    out[family].examples = ordered.slice(0, 3).map(describeRevision);
  }
  return out;
}

function describeRevision(i: Instance): string {
  const q = i.question;
  const r = i.resolution;
  const head = `${q.instance_id} ${q.family} ${q.subjects.length === 1 ? q.subjects[0] : `${q.subjects.length} stocks`} ${q.target}`;
  if (q.family === 'RANK') {
    return `${head}: first-release ranking ${(r.ranking ?? []).join(' > ')}; on latest values ${(r.latest_ranking ?? []).join(' > ')}${r.flipped ? ' (top-K changes)' : ''}`;
  }
  if (q.family === 'EVT') {
    return `${head}: outcome ${r.value} on first releases, ${r.latest_value} on latest values${r.revision_note ? ` (${r.revision_note})` : ''}`;
  }
  return `${head}: first release ${shownNumber(r.value ?? Number.NaN)}, latest ${r.latest_value === null ? 'withdrawn' : shownNumber(r.latest_value)}`;
}
