import { type GenerationContext, usTradingDaysAfter, weekEndBars } from './generation-context.ts';
import type { SeriesPoints } from './load-question-data.ts';
import type { Candidate, InputSpec, InstanceDraft } from './question-candidate.ts';
import { DAY_US, eventResolution, shownNumber, valueResolution } from './question-candidate.ts';

/** VAL's horizons in trading days: a week and a month. EVT's close events use the month. */
export const VAL_HORIZONS = [5, 21] as const;
export const EVT_CLOSE_HORIZON = 21;
/**
 * Price inputs reach back this many bars before t by default (a year; --price-lookback changes it): a
 * system gets the recent path of each stock, not 20 years of bars per instance. The EVT close base rate
 * reads the same year.
 */
export const PRICE_LOOKBACK_BARS = 260;
/** A series whose last bar is this recent at the run date is still trading: only it gets open questions. */
const ALIVE_US = 7 * DAY_US;

/** One weekly question date of one close series: bar i, asked when its close was first public. */
interface PriceOrigin {
  p: SeriesPoints;
  i: number;
  date: string;
  t: number;
}

/**
 * VAL and EVT close-event candidates: at the close of each week's last bar of every as-traded close
 * series, the close h bars later (VAL, h in VAL_HORIZONS) and whether it is above the close at t (EVT,
 * h = 21). Answered on first releases: the target bar's first published close. Open (T3) candidates are
 * made only after the cutoff and for series still trading at the run date.
 */
export function generatePriceCandidates(
  closes: readonly SeriesPoints[],
  ctx: GenerationContext,
  families: { val: boolean; evt: boolean },
): Candidate[] {
  const out: Candidate[] = [];
  for (const p of closes) {
    const n = p.ts.length;
    if (n === 0) continue;
    const alive = ctx.runDate - p.firstAt[n - 1] <= ALIVE_US;
    const { index, dates } = weekEndBars(p);
    for (const i of index) {
      const o: PriceOrigin = { p, i, date: dates[i], t: p.firstAt[i] };
      const horizons = [
        ...(families.val ? VAL_HORIZONS.map((h) => ({ family: 'VAL' as const, h })) : []),
        ...(families.evt ? [{ family: 'EVT' as const, h: EVT_CLOSE_HORIZON }] : []),
      ];
      for (const { family, h } of horizons) {
        const resolved = i + h < n;
        if (!resolved && !(alive && o.t > ctx.cutoff)) continue;
        const targetDate = resolved ? dates[i + h] : usTradingDaysAfter(dates[n - 1], i + h - (n - 1));
        out.push({
          family,
          key: `${family}|${p.seriesId}|${o.date}|${h}`,
          t: o.t,
          resolvesAt: resolved ? p.firstAt[i + h] : null,
          make: () =>
            family === 'VAL'
              ? valDraft(o, h, targetDate, resolved, ctx)
              : evtCloseDraft(o, h, targetDate, resolved, ctx),
        });
      }
    }
  }
  return out;
}

/** The siblings of a close (the same entity's daily series of the same source: OHLCV) over the lookback. */
export function priceInputs(p: SeriesPoints, i: number, ctx: GenerationContext): InputSpec[] {
  const fromTs = ctx.priceLookbackBars === null ? null : p.ts[Math.max(0, i - (ctx.priceLookbackBars - 1))];
  const siblings = (ctx.entitySeries.get(p.entityId) ?? []).filter(
    (s) => s.source === p.source && (s.frequency === 'BD' || s.frequency === 'D'),
  );
  const ids = siblings.length > 0 ? siblings.map((s) => s.seriesId) : [p.seriesId];
  return ids.map((seriesId) => ({ seriesId, fromTs }));
}

/** What VAL and EVT close events at bar i share: the stock, the reference close at t, cluster and inputs. */
function priceDraft(o: PriceOrigin, h: number, target: string, ctx: GenerationContext) {
  const { p, i } = o;
  return {
    subjects: [p.seriesId],
    target,
    horizon: h,
    reference: p.firstValue[i],
    referenceAt: p.firstAt[i],
    clusterId: `entity:${p.entityId}`,
    inputs: priceInputs(p, i, ctx),
  };
}

function valDraft(
  o: PriceOrigin,
  h: number,
  target: string,
  resolved: boolean,
  ctx: GenerationContext,
): InstanceDraft {
  const base = priceDraft(o, h, target, ctx);
  return {
    ...base,
    question: `What will ${o.p.seriesId} (${o.p.title}) close at, as traded, on ${target}, ${h} trading days after its close of ${shownNumber(base.reference)} on ${o.date}?`,
    scorerParams: { reference: base.reference },
    resolution: resolved ? valueResolution(o.p, o.i + h) : null,
    baselines: [{ model: 'last_value', answer: base.reference }],
  };
}

function evtCloseDraft(
  o: PriceOrigin,
  h: number,
  target: string,
  resolved: boolean,
  ctx: GenerationContext,
): InstanceDraft {
  const { p, i } = o;
  const base = priceDraft(o, h, target, ctx);
  const j = i + h;
  return {
    ...base,
    question: `Will ${p.seriesId} (${p.title}) close above ${shownNumber(base.reference)}, its close on ${o.date}, on ${target}, ${h} trading days later? Answer with a probability.`,
    scorerParams: {},
    resolution: resolved
      ? eventResolution(
          p.firstValue[j] > base.reference,
          p.latestValue[j] > p.latestValue[i],
          p.latestValue[j] !== p.firstValue[j] || p.latestValue[i] !== p.firstValue[i],
        )
      : null,
    baselines: [
      { model: 'base_rate', answer: closeBaseRate(p, i, h, o.t) },
      { model: 'coin_flip', answer: 0.5 },
    ],
  };
}

/** The share of h-bar windows ending in the last year of bars known at t whose close rose (0.5 without any). */
function closeBaseRate(p: SeriesPoints, i: number, h: number, t: number): number {
  let up = 0;
  let n = 0;
  for (let j = Math.max(h, i - (PRICE_LOOKBACK_BARS - 1)); j <= i; j++) {
    if (p.firstAt[j] > t) continue;
    n++;
    if (p.firstValue[j] > p.firstValue[j - h]) up++;
  }
  return n === 0 ? 0.5 : up / n;
}
