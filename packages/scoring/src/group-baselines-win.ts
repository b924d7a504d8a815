import type { ScoringResults } from './results-schema.ts';

type BaselineWin = ScoringResults['baselines_win'][number];

/** Cells shown per group in the leaderboard and the HTML report; the rest are counted (all in results.json). */
export const TOP_CELLS_PER_GROUP = 5;

export interface BaselineWinGroup {
  /** The taxonomy category of the group's units. */
  category: string;
  cells: number;
  /** Cells per leader (ties joined: 'drift = random_walk'), most first. */
  byLeader: { leader: string; cells: number }[];
  /** Every cell of the group, top first (see groupBaselinesWin). */
  rows: BaselineWin[];
  /** The first `top` rows. */
  shown: BaselineWin[];
  /** Cells not shown. */
  more: number;
}

/** The category of a unit key `Scope / Category / Detail category / Frequency` (the key itself otherwise). */
export function unitCategory(unit: string): string {
  const parts = unit.split(' / ');
  return parts.length >= 4 ? parts[1] : unit;
}

/**
 * "Where the baselines win" grouped by category, as the leaderboard and the HTML report show it: groups with
 * most cells first; within a group the top cells first — those where a submitted model competes, by the
 * baseline's relative lead over the best submitted value, largest first — then the others in results order
 * (unit, metric). The full list stays in results.json (baselines_win).
 */
export function groupBaselinesWin(
  rows: readonly BaselineWin[],
  top: number = TOP_CELLS_PER_GROUP,
): BaselineWinGroup[] {
  const groups = new Map<string, BaselineWin[]>();
  for (const w of rows) {
    const c = unitCategory(w.unit);
    const g = groups.get(c);
    if (g) g.push(w);
    else groups.set(c, [w]);
  }
  const lead = (w: BaselineWin) =>
    w.best_submitted_value === null
      ? Number.NEGATIVE_INFINITY
      : Math.abs(w.best_submitted_value - w.value) / Math.max(Math.abs(w.value), 1e-12);
  return [...groups.entries()]
    .map(([category, cells]) => {
      const ordered = cells
        .map((w, i) => ({ w, i, lead: lead(w) }))
        .sort((a, b) => b.lead - a.lead || a.i - b.i)
        .map((x) => x.w);
      const leaders = new Map<string, number>();
      for (const w of ordered) {
        const key = w.leaders.join(' = ');
        leaders.set(key, (leaders.get(key) ?? 0) + 1);
      }
      return {
        category,
        cells: ordered.length,
        byLeader: [...leaders.entries()]
          .map(([leader, n]) => ({ leader, cells: n }))
          .sort((a, b) => b.cells - a.cells || a.leader.localeCompare(b.leader)),
        rows: ordered,
        shown: ordered.slice(0, top),
        more: Math.max(0, ordered.length - top),
      };
    })
    .sort((a, b) => b.cells - a.cells || a.category.localeCompare(b.category));
}
