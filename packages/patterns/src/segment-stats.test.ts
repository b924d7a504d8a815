import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPanel } from './load-panel.ts';
import { measureSegments } from './measure-segments.ts';
import { runSegmentModel } from './run-segment-model.ts';
import { segmentParams } from './segment-options.ts';

const L = 60;
const PARAMS = segmentParams({ lengths: { BD: L, D: 0, W: 0, M: 0, Q: 0, A: 0 } });

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
});
afterEach(() => duck.close());

/**
 * segment_stats after buildSegments' TypeScript pass (measureSegments: the tallies, moments and outliers
 * of each segment) and segment_counts, inline.
 */
async function runStats(params: Record<string, number | string>): Promise<void> {
  await measureSegments(duck, params, 0);
  for (const model of ['segment_counts', 'segment_stats']) {
    await runSegmentModel(duck, model, params);
  }
}

/** Weekday closes (21:00 UTC) from the grid epoch 2000-01-03, so step i of segment 0 is weekday i. */
function weekdayMicros(n: number): number[] {
  const out: number[] = [];
  for (let t = Date.parse('2000-01-03T21:00:00Z'); out.length < n; t += 86_400_000) {
    const d = new Date(t).getUTCDay();
    if (d !== 0 && d !== 6) out.push(t * 1000);
  }
  return out;
}

/** A price path from 59 returns (60 levels), optionally dropping some steps. */
function path(id: string, returns: number[], drop: number[] = []) {
  const ts = weekdayMicros(returns.length + 1);
  let v = 100;
  const rows = [{ series_id: id, timestamp: ts[0], available_at: ts[0], value: v }];
  returns.forEach((r, i) => {
    v *= 1 + r;
    rows.push({ series_id: id, timestamp: ts[i + 1], available_at: ts[i + 1], value: v });
  });
  return rows.filter((_, i) => !drop.includes(i));
}

/** `pos` positive and 59 − pos negative small returns, interleaved. */
function shares(pos: number): number[] {
  return Array.from({ length: 59 }, (_, i) => (i < pos ? 0.01 + i * 1e-5 : -0.01 - i * 1e-5)).sort(
    (a, b) => Math.sin(a * 1e4) - Math.sin(b * 1e4),
  );
}

describe('segment_stats model', () => {
  it('labels by positive share, by 3σ runs of ≥ 3 adjacent steps, and drops partial segments', async () => {
    const calm = shares(30);
    const spiked = (at: number[]) => calm.map((r, i) => (at.includes(i) ? 0.2 : r));
    const observations = [
      ...path('up', shares(40)),
      ...path('down', shares(19)),
      ...path('flat', calm),
      ...path('run3', spiked([30, 31, 32])),
      ...path('gap2', spiked([30, 31, 33])),
      ...path('partial', calm, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), // 50 of 60 steps < 90%
      ...path('holes', shares(40), [10, 20, 30, 40, 50]), // 55 of 60 steps ≥ 90%
    ];
    const ids = [...new Set(observations.map((o) => o.series_id))];
    await loadPanel(
      duck,
      ids.map((series_id) => ({ series_id, frequency: 'BD', detail_category: 'X', title: series_id })),
      observations,
    );
    await runStats(PARAMS);
    const rows = await duck.all<Record<string, unknown>>(
      'SELECT series_id, segment, n_steps, n_returns, n_positive, max_outlier_run, label, coverage FROM segment_stats ORDER BY series_id',
    );
    const by = Object.fromEntries(rows.map((r) => [r.series_id, r]));
    expect(Object.keys(by).sort()).toEqual(['down', 'flat', 'gap2', 'holes', 'run3', 'up']);
    expect(by.up.label).toBe('uptrend');
    expect(Number(by.up.n_positive)).toBe(40);
    expect(by.down.label).toBe('downtrend');
    expect(by.flat.label).toBe('volatile');
    expect(by.run3.label).toBe('extreme');
    expect(Number(by.run3.max_outlier_run)).toBe(3);
    // Two adjacent outliers and a third one step later: a run of 2, so labelled by its positive share.
    expect(Number(by.gap2.max_outlier_run)).toBe(2);
    const share = Number(by.gap2.n_positive) / Number(by.gap2.n_returns);
    expect(by.gap2.label).toBe(share >= 0.55 ? 'uptrend' : share <= 0.45 ? 'downtrend' : 'volatile');
    expect(Number(by.holes.n_steps)).toBe(55);
    expect(by.holes.coverage).toBeCloseTo(55 / 60, 12);
    expect(Number(by.holes.n_returns)).toBe(54);
  });

  it('follows configurable thresholds', async () => {
    const obs = path('s', shares(35)); // share 35/59 = 0.593
    await loadPanel(duck, [{ series_id: 's', frequency: 'BD', detail_category: 'X', title: 's' }], obs);
    for (const [up, label] of [
      [0.55, 'uptrend'],
      [0.6, 'volatile'],
    ] as const) {
      await runStats({ ...PARAMS, up_share: up });
      expect((await duck.one<{ label: string }>('SELECT label FROM segment_stats')).label).toBe(label);
    }
  });
});
