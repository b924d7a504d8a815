import { periodLabel } from '@asof/calendar';
import type { GenerationContext } from './generation-context.ts';
import type { SeriesPoints } from './load-question-data.ts';
import type { Candidate, InputSpec, InstanceDraft } from './question-candidate.ts';
import { DAY_US, eventResolution, shownNumber, valueResolution } from './question-candidate.ts';

/**
 * A release question is asked this long after the release before the one that answers it: t depends only
 * on what was public by t, never on when the answer would come (the canary test holds generation to that).
 */
export const RELEASE_DELAY_US = DAY_US;
/** FUND needs this many first-reported periods known at t; its scale is the mean change over the last 8. */
const FUND_MIN_KNOWN = 4;
const FUND_SCALE_PERIODS = 8;

/** How long after a series' last release it still counts as published (open questions need that). */
function aliveWindow(frequency: string): number {
  return (frequency === 'M' ? 62 : 200) * DAY_US;
}

/** The label of the period after `label` (2023-12 → 2024-01, 2023Q4 → 2024Q1). */
export function nextPeriodLabel(label: string): string {
  const q = /^(\d{4})Q([1-4])$/.exec(label);
  if (q) return Number(q[2]) === 4 ? `${Number(q[1]) + 1}Q1` : `${q[1]}Q${Number(q[2]) + 1}`;
  const m = /^(\d{4})-(\d{2})$/.exec(label);
  if (m)
    return Number(m[2]) === 12
      ? `${Number(m[1]) + 1}-01`
      : `${m[1]}-${String(Number(m[2]) + 1).padStart(2, '0')}`;
  return `after ${label}`;
}

/** A period j of a series asked about at t: j−1 was first published by t, j not yet. */
interface ReleaseOrigin {
  p: SeriesPoints;
  j: number;
  labels: string[];
  t: number;
  resolved: boolean;
}

/**
 * The release questions of one series: for each period j, asked RELEASE_DELAY_US after the first release
 * of period j−1, when neither j nor any later period was public yet (so j is the next release); resolved
 * when j's first release is public by the run date, open (T3) when it is not, the question asked after the
 * cutoff and the series still being published (its last release within two periods of the run date).
 */
function releaseOrigins(p: SeriesPoints, ctx: GenerationContext): ReleaseOrigin[] {
  const n = p.ts.length;
  const labels = Array.from(p.ts, (ts) => periodLabel(ts, p.frequency));
  const out: ReleaseOrigin[] = [];
  for (let j = 1; j < n; j++) {
    const t = p.firstAt[j - 1] + RELEASE_DELAY_US;
    if (p.firstAt[j] <= t || (j + 1 < n && p.firstAt[j + 1] <= t)) continue;
    out.push({ p, j, labels, t, resolved: true });
  }
  const t = n > 0 ? p.firstAt[n - 1] + RELEASE_DELAY_US : Number.NaN;
  if (t > ctx.cutoff && t <= ctx.runDate && ctx.runDate - p.firstAt[n - 1] <= aliveWindow(p.frequency)) {
    labels.push(nextPeriodLabel(labels[n - 1]));
    out.push({ p, j: n, labels, t, resolved: false });
  }
  return out;
}

function candidate(family: 'EVT' | 'FUND', o: ReleaseOrigin, make: () => InstanceDraft): Candidate {
  return {
    family,
    key: `${family}|${o.p.seriesId}|${o.labels[o.j]}`,
    t: o.t,
    resolvesAt: o.resolved ? o.p.firstAt[o.j] : null,
    make,
  };
}

/** The macro release events: "will the first release for P be above the first release for P−1?". */
export function generateMacroEventCandidates(
  series: readonly SeriesPoints[],
  ctx: GenerationContext,
): Candidate[] {
  return series.flatMap((p) =>
    releaseOrigins(p, ctx).map((o) =>
      candidate('EVT', o, () => {
        const prev = o.j - 1;
        const reference = p.firstValue[prev];
        return {
          ...releaseEvent(o, prev, `release:${p.source}:${o.labels[o.j]}`),
          question: `Will the first release of ${p.seriesId} (${p.title}) for ${o.labels[o.j]} be above the first release for ${o.labels[prev]}, ${shownNumber(reference)}? Answer with a probability.`,
          inputs: [{ seriesId: p.seriesId, fromTs: null }],
          baselines: eventBaselines(p, o.t, 1),
        };
      }),
    ),
  );
}

/** EDGAR revenue, year on year: "will the first-reported revenue for P exceed the same quarter's a year earlier?". */
export function generateRevenueEventCandidates(
  series: readonly SeriesPoints[],
  ctx: GenerationContext,
): Candidate[] {
  return series
    .filter((p) => p.fundMetric === 'revenue')
    .flatMap((p) =>
      releaseOrigins(p, ctx).flatMap((o) => {
        const prev = yearEarlier(o);
        if (prev === null || p.firstAt[prev] > o.t) return [];
        return [
          candidate('EVT', o, () => {
            const reference = p.firstValue[prev];
            return {
              ...releaseEvent(o, prev, `entity:${p.entityId}`),
              question: `Will ${p.title} for ${o.labels[o.j]}, as first reported, exceed the first-reported value for ${o.labels[prev]}, ${shownNumber(reference)}? Answer with a probability.`,
              inputs: entityInputs(p, ctx),
              baselines: eventBaselines(p, o.t, 4),
            };
          }),
        ];
      }),
    );
}

/** The index of the same quarter a year before period j (null when the series lacks it). */
function yearEarlier(o: ReleaseOrigin): number | null {
  const m = /^(\d{4})Q([1-4])$/.exec(o.labels[o.j]);
  if (!m) return null;
  const want = `${Number(m[1]) - 1}Q${m[2]}`;
  for (let k = o.j - 1; k >= 0 && k >= o.j - 8; k--) if (o.labels[k] === want) return k;
  return null;
}

/** The parts of a first-release-above-a-reference event shared by the macro and revenue events. */
function releaseEvent(
  o: ReleaseOrigin,
  prev: number,
  clusterId: string,
): Omit<InstanceDraft, 'question' | 'inputs' | 'baselines'> {
  const { p, j } = o;
  const reference = p.firstValue[prev];
  const resolution = o.resolved
    ? eventResolution(
        p.firstValue[j] > reference,
        p.latestValue[j] > p.latestValue[prev],
        p.latestValue[j] !== p.firstValue[j] || p.latestValue[prev] !== reference,
        `${o.labels[j]} vs ${o.labels[prev]}: first releases ${shownNumber(p.firstValue[j])} vs ${shownNumber(reference)}, latest ${shownNumber(p.latestValue[j])} vs ${shownNumber(p.latestValue[prev])}`,
      )
    : null;
  return {
    subjects: [p.seriesId],
    target: o.labels[j],
    horizon: null,
    reference,
    referenceAt: p.firstAt[prev],
    scorerParams: {},
    clusterId,
    resolution,
  };
}

/** base_rate: how often a first release was above the one `lag` periods before it, among those public at t. */
function eventBaselines(p: SeriesPoints, t: number, lag: number): InstanceDraft['baselines'] {
  let up = 0;
  let n = 0;
  for (let k = lag; k < p.ts.length; k++) {
    if (p.firstAt[k] > t || p.firstAt[k - lag] > t) continue;
    n++;
    if (p.firstValue[k] > p.firstValue[k - lag]) up++;
  }
  return [
    { model: 'base_rate', answer: n === 0 ? 0.5 : up / n },
    { model: 'coin_flip', answer: 0.5 },
  ];
}

/** Every EDGAR series of the company: what its filings had said by t. */
function entityInputs(p: SeriesPoints, ctx: GenerationContext): InputSpec[] {
  const all = (ctx.entitySeries.get(p.entityId) ?? []).filter((s) => s.source === p.source);
  return (all.length > 0 ? all.map((s) => s.seriesId) : [p.seriesId]).map((seriesId) => ({
    seriesId,
    fromTs: null,
  }));
}

/**
 * FUND: a company's next first-reported quarterly value, scored by a utility truncated at 0 whose scale is
 * the series' own mean absolute change between consecutive first-reported quarters known at t (the last 8;
 * docs/decisions/0070), 10% of the last value when that is 0.
 */
export function generateFundCandidates(series: readonly SeriesPoints[], ctx: GenerationContext): Candidate[] {
  return series.flatMap((p) =>
    releaseOrigins(p, ctx).flatMap((o) => {
      const known: number[] = [];
      for (let k = 0; k < o.j; k++) if (p.firstAt[k] <= o.t) known.push(k);
      if (known.length < FUND_MIN_KNOWN) return [];
      return [candidate('FUND', o, () => fundDraft(o, known, ctx))];
    }),
  );
}

function fundDraft(o: ReleaseOrigin, known: number[], ctx: GenerationContext): InstanceDraft {
  const { p, j } = o;
  const last = known[known.length - 1];
  const reference = p.firstValue[last];
  const recent = known.slice(-(FUND_SCALE_PERIODS + 1));
  let sum = 0;
  for (let k = 1; k < recent.length; k++)
    sum += Math.abs(p.firstValue[recent[k]] - p.firstValue[recent[k - 1]]);
  const mean = sum / (recent.length - 1);
  const scale = mean > 0 ? mean : Math.abs(reference) > 0 ? Math.abs(reference) * 0.1 : 1;
  return {
    subjects: [p.seriesId],
    target: o.labels[j],
    horizon: null,
    reference,
    referenceAt: p.firstAt[last],
    question: `What will ${p.title} be for ${o.labels[j]}, as first reported? The last first-reported value, for ${o.labels[last]}, was ${shownNumber(reference)}.`,
    scorerParams: { scale },
    clusterId: `entity:${p.entityId}`,
    inputs: entityInputs(p, ctx),
    resolution: o.resolved ? valueResolution(p, j) : null,
    baselines: [{ model: 'last_value', answer: reference }],
  };
}
