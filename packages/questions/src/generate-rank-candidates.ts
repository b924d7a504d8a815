import { priceInputs } from './generate-price-candidates.ts';
import {
  type GenerationContext,
  rankDescending,
  sampleKey,
  usTradingDaysAfter,
  weekEndBars,
} from './generation-context.ts';
import { isMemberAt, type SeriesPoints } from './load-question-data.ts';
import type { Candidate, InstanceDraft } from './question-candidate.ts';
import { DAY_US } from './question-candidate.ts';

/** RANK's horizon in trading days (a month), its largest cross-section, and the smallest worth ranking. */
export const RANK_HORIZON = 21;
export const RANK_MAX_SUBJECTS = 10;
export const RANK_MIN_SUBJECTS = 4;
const ALIVE_US = 7 * DAY_US;

interface Bar {
  p: SeriesPoints;
  i: number;
}

/** Counts of what RANK left out, for the manifest summary. */
export interface RankDrops {
  /** Member stocks of a cross-section without a bar on its target date (delisted or halted before it). */
  subjects_without_target_bar: number;
  /** Weekly dates with fewer than RANK_MIN_SUBJECTS member stocks trading. */
  dates_too_few_members: number;
}

/**
 * RANK candidates: on each weekly question date d, the close series with a bar on d whose entity was a
 * member at t (the latest first publication of those closes; point-in-time membership, as splits read
 * it), up to RANK_MAX_SUBJECTS of them chosen by the seed, to be ordered by their return from d to the
 * RANK_HORIZON-th bar after it. The target date is the one most of them reach in 21 bars; members without
 * a bar on it are left out and counted (a limitation: a stock delisted within the month cannot be asked
 * about). Open (T3) cross-sections are made after the cutoff from stocks still trading at the run date.
 */
export function generateRankCandidates(
  closes: readonly SeriesPoints[],
  ctx: GenerationContext,
  drops: RankDrops,
): Candidate[] {
  const byDate = new Map<string, Bar[]>();
  for (const p of closes) {
    const { index, dates } = weekEndBars(p);
    for (const i of index) {
      const list = byDate.get(dates[i]) ?? [];
      list.push({ p, i });
      byDate.set(dates[i], list);
    }
  }
  const out: Candidate[] = [];
  for (const date of [...byDate.keys()].sort()) {
    const bars = byDate.get(date) as Bar[];
    const t = Math.max(...bars.map((b) => b.p.firstAt[b.i]));
    const members = bars.filter((b) => isMemberAt(ctx.spans, b.p.entityId, t));
    if (members.length < RANK_MIN_SUBJECTS) {
      drops.dates_too_few_members++;
      continue;
    }
    const candidate =
      resolvedCrossSection(date, t, members, ctx, drops) ?? openCrossSection(date, t, members, ctx);
    if (candidate) out.push(candidate);
  }
  return out;
}

function resolvedCrossSection(
  date: string,
  t: number,
  members: Bar[],
  ctx: GenerationContext,
  drops: RankDrops,
): Candidate | null {
  const targetDates = new Map<string, number>();
  for (const b of members) {
    if (b.i + RANK_HORIZON >= b.p.ts.length) continue;
    const d = nyDateOfBar(b, RANK_HORIZON);
    targetDates.set(d, (targetDates.get(d) ?? 0) + 1);
  }
  const best = [...targetDates.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  if (best === undefined || best[1] < RANK_MIN_SUBJECTS) return null;
  const target = best[0];
  const reaching = members.filter(
    (b) => b.i + RANK_HORIZON < b.p.ts.length && nyDateOfBar(b, RANK_HORIZON) === target,
  );
  drops.subjects_without_target_bar += members.length - reaching.length;
  const chosen = chooseSubjects(reaching, date, ctx);
  const resolvesAt = Math.max(...chosen.map((b) => b.p.firstAt[b.i + RANK_HORIZON]));
  return {
    family: 'RANK',
    key: `RANK|${date}|${RANK_HORIZON}|${chosen.map((b) => b.p.seriesId).join(',')}`,
    t,
    resolvesAt,
    make: () => rankDraft(date, target, chosen, true, ctx),
  };
}

function openCrossSection(date: string, t: number, members: Bar[], ctx: GenerationContext): Candidate | null {
  if (t <= ctx.cutoff) return null;
  const live = members.filter(
    (b) => b.i + RANK_HORIZON >= b.p.ts.length && ctx.runDate - b.p.firstAt[b.p.ts.length - 1] <= ALIVE_US,
  );
  if (live.length < RANK_MIN_SUBJECTS) return null;
  const chosen = chooseSubjects(live, date, ctx);
  const first = chosen[0];
  const barsLeft = first.p.ts.length - 1 - first.i;
  const target = usTradingDaysAfter(nyDateOfBar(first, barsLeft), RANK_HORIZON - barsLeft);
  return {
    family: 'RANK',
    key: `RANK|${date}|${RANK_HORIZON}|${chosen.map((b) => b.p.seriesId).join(',')}`,
    t,
    resolvesAt: null,
    make: () => rankDraft(date, target, chosen, false, ctx),
  };
}

/** The New York date of the bar `ahead` bars after b. */
function nyDateOfBar(b: Bar, ahead: number): string {
  return weekEndBars(b.p).dates[b.i + ahead];
}

/** Up to RANK_MAX_SUBJECTS bars, by the seed's order on (date, series): the same cross-section for the same seed. */
function chooseSubjects(bars: Bar[], date: string, ctx: GenerationContext): Bar[] {
  return bars
    .map((b) => ({ b, k: sampleKey(ctx.seed, `RANK-subject|${date}|${b.p.seriesId}`) }))
    .sort((x, y) => (x.k < y.k ? -1 : 1))
    .slice(0, RANK_MAX_SUBJECTS)
    .map((x) => x.b)
    .sort((x, y) => (x.p.seriesId < y.p.seriesId ? -1 : 1));
}

function rankDraft(
  date: string,
  target: string,
  chosen: Bar[],
  resolved: boolean,
  ctx: GenerationContext,
): InstanceDraft {
  const subjects = chosen.map((b) => b.p.seriesId);
  const k = Math.max(1, Math.floor(subjects.length / 3));
  const h = RANK_HORIZON;
  const returnsOf = (values: (b: Bar, j: number) => number) =>
    new Map(chosen.map((b) => [b.p.seriesId, values(b, b.i + h) / values(b, b.i) - 1]));
  const momentum = new Map(
    chosen.map((b) => [b.p.seriesId, b.i >= h ? b.p.firstValue[b.i] / b.p.firstValue[b.i - h] - 1 : 0]),
  );
  let resolution: InstanceDraft['resolution'] = null;
  if (resolved) {
    const first = returnsOf((b, j) => b.p.firstValue[j]);
    const latest = returnsOf((b, j) => b.p.latestValue[j]);
    const ranking = rankDescending(first);
    const latestRanking = rankDescending(latest);
    const topK = (r: string[]) => new Set(r.slice(0, k));
    const a = topK(ranking);
    resolution = {
      value: null,
      ranking,
      returns: Object.fromEntries(first),
      latestValue: null,
      latestRanking,
      moved: ranking.join() !== latestRanking.join(),
      flipped: latestRanking.slice(0, k).some((s) => !a.has(s)),
    };
  }
  return {
    subjects,
    target,
    horizon: h,
    reference: null,
    referenceAt: null,
    question: `Rank these ${subjects.length} stocks by their as-traded return from their close on ${date} to their close on ${target} (${h} trading days), highest first; the top ${k} are also scored as a set: ${subjects.join(', ')}.`,
    scorerParams: { k },
    clusterId: `RANK:${date}`,
    inputs: chosen.flatMap((b) => priceInputs(b.p, b.i, ctx).filter((s) => s.seriesId === b.p.seriesId)),
    resolution,
    baselines: [
      { model: 'momentum', answer: rankDescending(momentum) },
      {
        model: 'random',
        answer: [...subjects].sort((x, y) =>
          sampleKey(ctx.seed, `RANK-random|${date}|${x}`) < sampleKey(ctx.seed, `RANK-random|${date}|${y}`)
            ? -1
            : 1,
        ),
      },
    ],
  };
}
