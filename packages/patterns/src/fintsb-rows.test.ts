import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPanel } from './load-panel.ts';
import { buildSegmentSteps, runSegmentModel } from './run-segment-model.ts';
import { segmentParams } from './segment-options.ts';

const L = 20;
const PARAMS = { ...segmentParams({ lengths: { BD: L, D: 0, W: 0, M: 0, Q: 0, A: 0 } }), length: L };
const IDS = ['a', 'b', 'c', 'd'];

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
});
afterEach(() => duck.close());

function weekdayMicros(n: number): number[] {
  const out: number[] = [];
  for (let t = Date.parse('2000-01-03T21:00:00Z'); out.length < n; t += 86_400_000) {
    const d = new Date(t).getUTCDay();
    if (d !== 0 && d !== 6) out.push(t * 1000);
  }
  return out;
}

/** Four series over 25 weekdays (segment 0 = the first 20); `bump` multiplies one value. */
async function rows(bump?: { series: string; step: number; factor: number }) {
  const ts = weekdayMicros(25);
  const observations = IDS.flatMap((id, k) =>
    ts.map((t, i) => ({
      series_id: id,
      timestamp: t,
      available_at: t,
      value:
        (50 + 10 * k + Math.sin(i * (k + 1)) * 3) *
        (bump && bump.series === id && bump.step === i ? bump.factor : 1),
    })),
  );
  // A step missing for one series: the others are still normalised among themselves that day.
  const kept = observations.filter((o) => !(o.series_id === 'd' && o.timestamp === ts[7]));
  await loadPanel(
    duck,
    IDS.map((series_id) => ({ series_id, frequency: 'BD', detail_category: 'X', title: series_id })),
    kept,
  );
  await duck.run(
    `CREATE OR REPLACE TABLE fintsb_members AS
     SELECT 'uptrend_1' AS dataset, 'uptrend' AS pattern, series_id, 0 AS segment FROM series`,
  );
  await buildSegmentSteps(duck, PARAMS);
  await runSegmentModel(duck, 'fintsb_rows', PARAMS);
  return duck.all<{
    series_id: string;
    step: number;
    split: string;
    ret: number | null;
    ret_z: number | null;
    ret_rank: number | null;
  }>('SELECT series_id, step, split, ret, ret_z, ret_rank FROM fintsb_rows ORDER BY step, series_id');
}

describe('fintsb_rows model', () => {
  it('splits the steps 7:1:2 and normalises each day across the dataset only', async () => {
    const r = await rows();
    expect(r).toHaveLength(4 * L - 1);
    const stepsOf = (split: string) => new Set(r.filter((x) => x.split === split).map((x) => x.step));
    expect([stepsOf('train').size, stepsOf('valid').size, stepsOf('test').size]).toEqual([14, 2, 4]);
    expect(Math.max(...stepsOf('train'))).toBeLessThan(Math.min(...stepsOf('valid')));
    expect(Math.max(...stepsOf('valid'))).toBeLessThan(Math.min(...stepsOf('test')));
    for (let step = 1; step < L; step++) {
      const day = r.filter((x) => x.step === step);
      const rets = day.map((x) => x.ret as number);
      const mean = rets.reduce((a, b) => a + b, 0) / rets.length;
      const sd = Math.sqrt(rets.reduce((a, b) => a + (b - mean) ** 2, 0) / rets.length);
      for (const x of day) expect(x.ret_z).toBeCloseTo(((x.ret as number) - mean) / sd, 10);
      expect(day.length).toBe(step === 7 ? 3 : 4);
    }
    expect(r.filter((x) => x.step === 0).every((x) => x.ret === null && x.ret_z === null)).toBe(true);
  });

  it('leaves every earlier day unchanged when a later day is perturbed', async () => {
    const before = await rows();
    const after = await rows({ series: 'b', step: 12, factor: 1.5 });
    const key = (x: { series_id: string; step: number }) => `${x.series_id}:${x.step}`;
    const afterBy = new Map(after.map((x) => [key(x), x]));
    for (const x of before.filter((y) => y.step < 12)) expect(afterBy.get(key(x))).toEqual(x);
    // …and the perturbation does reach that day's features of every series (the test can fail).
    const day12 = before.filter((y) => y.step === 12);
    expect(day12.every((x) => afterBy.get(key(x))?.ret_z !== x.ret_z)).toBe(true);
  });
});
