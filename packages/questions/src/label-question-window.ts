export type QuestionWindow = 'T1' | 'T2' | 'T3' | 'straddles_cutoff';

/**
 * An instance's FinForesight window from its forecast instant t, the instant its answer was first public
 * (null: not public at the run date) and the model cutoff c: T1 answer public before c (the model may have
 * memorised it), T2 asked after c and answered by the run date, T3 open at the run date (the generator
 * makes open instances only for t after c). The rule of packages/split/src/label-window.ts, with the
 * answer's first release in place of the target's.
 */
export function labelQuestionWindow(t: number, resolvesAt: number | null, cutoff: number): QuestionWindow {
  if (resolvesAt === null) return 'T3';
  if (resolvesAt < cutoff) return 'T1';
  if (t > cutoff) return 'T2';
  return 'straddles_cutoff';
}
