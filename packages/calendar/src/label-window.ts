import type { Micros } from './zoned-micros.ts';

export type CutoffWindow = 'T1' | 'T2' | 'T3' | 'straddles_cutoff';

/**
 * The FinForesight window of one origin, given the instant its whole target became known in the chosen
 * vintage (`targetKnownAt`, null when not known by the run date), the model knowledge cutoff c and the run
 * date r. T1: target known before c (the model may have memorised it). T2: origin after c and target known by
 * r (scorable now, unseen in training). T3: target not known at r (pending). An origin at or before c whose
 * target became known after c is in none of them (`straddles_cutoff`: the model saw part of the path).
 * Mirrors packages/split/sql/origin_candidates.sql (split tests check the SQL against it row by row);
 * asof questions labels its instances with it, the answer's first release as `targetKnownAt`.
 */
export function labelWindow(
  origin: Micros,
  targetKnownAt: Micros | null,
  cutoff: Micros,
  runDate: Micros,
): CutoffWindow {
  if (targetKnownAt !== null && targetKnownAt < cutoff) return 'T1';
  if (targetKnownAt === null || targetKnownAt > runDate) return 'T3';
  if (origin > cutoff) return 'T2';
  return 'straddles_cutoff';
}
