import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPanel } from './load-panel.ts';
import { buildSegmentSteps } from './run-segment-model.ts';
import { segmentParams } from './segment-options.ts';

const T = (iso: string) => Date.parse(iso) * 1000;
const OFF = { D: 0, W: 0, M: 0, Q: 0, A: 0 };

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
});
afterEach(() => duck.close());

type Obs = [series: string, timestamp: string, value: number | null, availableAt?: string];

async function steps(freq: Record<string, string>, obs: Obs[], lengths: Record<string, number>) {
  await loadPanel(
    duck,
    Object.entries(freq).map(([series_id, frequency]) => ({
      series_id,
      frequency: frequency as 'BD',
      detail_category: 'X',
      title: series_id,
    })),
    obs.map(([series_id, ts, value, av]) => ({
      series_id,
      timestamp: T(ts),
      available_at: T(av ?? ts),
      value,
    })),
  );
  await buildSegmentSteps(duck, segmentParams({ lengths: { ...OFF, ...lengths } }));
  const rows = await duck.all<{
    series_id: string;
    segment: number;
    step: number;
    ts: string;
    value: number;
    ret: number | null;
  }>(
    `SELECT s.series_id, st.segment, st.step, strftime(st."timestamp", '%Y-%m-%dT%H:%M') AS ts, st.value, st.ret
     FROM segment_steps AS st
     JOIN (SELECT series_id, row_number() OVER (ORDER BY series_id) AS series_key FROM series) AS s USING (series_key)
     ORDER BY s.series_id, st.segment, st.step`,
  );
  return rows;
}

function weekdays(from: string, n: number): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T21:00:00Z`); out.length < n; t += 86_400_000) {
    const d = new Date(t).getUTCDay();
    if (d !== 0 && d !== 6) out.push(new Date(t).toISOString());
  }
  return out;
}

describe('segment_steps model', () => {
  it('places BD bars on the weekday grid from the epoch, cuts segments and keeps returns inside them', async () => {
    const days = weekdays('2000-01-03', 12);
    const rows = await steps(
      { a: 'BD' },
      [
        ...days.map((d, i) => ['a', d, 100 + i] as Obs),
        ['a', '2000-01-08T21:00:00Z', 999], // a Saturday: off the BD grid
        ['a', '1999-12-31T21:00:00Z', 99], // the Friday before the epoch: position −1
      ],
      { BD: 10 },
    );
    expect(rows.map((r) => [r.segment, r.step])).toEqual([
      [-1, 9],
      ...Array.from({ length: 10 }, (_, i) => [0, i]),
      [1, 0],
      [1, 1],
    ]);
    const jan10 = rows.find((r) => r.ts === '2000-01-10T21:00');
    expect([jan10?.segment, jan10?.step]).toEqual([0, 5]);
    expect(rows.find((r) => r.segment === 0 && r.step === 0)?.ret).toBeNull();
    expect(rows.find((r) => r.segment === 1 && r.step === 0)?.ret).toBeNull();
    expect(rows.find((r) => r.segment === 1 && r.step === 1)?.ret).toBeCloseTo(111 / 110 - 1, 12);
    expect(rows.find((r) => r.segment === 0 && r.step === 5)?.ret).toBeCloseTo(105 / 104 - 1, 12);
  });

  it('uses the latest vintage, differences for levels that cross zero, and the later of two bars on a date', async () => {
    const rows = await steps(
      { b: 'BD', c: 'BD', d: 'BD' },
      [
        ['b', '2000-01-03T21:00:00Z', 5, '2000-01-03T21:00:00Z'],
        ['b', '2000-01-03T21:00:00Z', 6, '2000-01-05T12:00:00Z'],
        ['b', '2000-01-04T21:00:00Z', 3],
        ['c', '2000-01-03T21:00:00Z', -1],
        ['c', '2000-01-04T21:00:00Z', 2],
        ['c', '2000-01-05T21:00:00Z', 4],
        ['d', '2000-01-03T15:00:00Z', 50],
        ['d', '2000-01-03T21:00:00Z', 40],
        ['d', '2000-01-04T21:00:00Z', 44],
      ],
      { BD: 10 },
    );
    const of = (s: string) => rows.filter((r) => r.series_id === s).map((r) => [r.step, r.value, r.ret]);
    expect(of('b')).toEqual([
      [0, 6, null],
      [1, 3, -0.5],
    ]);
    expect(of('c')).toEqual([
      [0, -1, null],
      [1, 2, 3],
      [2, 4, 2],
    ]);
    expect(of('d')[0]).toEqual([0, 40, null]);
    expect(of('d')[1][0]).toBe(1);
    expect(of('d')[1][2]).toBeCloseTo(44 / 40 - 1, 12);
  });

  it('drops a step whose latest vintage is a withdrawal (value NULL) and returns across the gap', async () => {
    const rows = await steps(
      { w: 'BD' },
      [
        ['w', '2000-01-03T21:00:00Z', 10],
        ['w', '2000-01-04T21:00:00Z', 20],
        ['w', '2000-01-04T21:00:00Z', null, '2000-02-01T12:00:00Z'], // withdrawn by a later vintage
        ['w', '2000-01-05T21:00:00Z', 15],
        ['w', '2000-01-06T21:00:00Z', 30, '2000-01-06T21:00:00Z'],
        ['w', '2000-01-06T21:00:00Z', null, '2000-02-01T12:00:00Z'],
        ['w', '2000-01-06T21:00:00Z', 33, '2000-03-01T12:00:00Z'], // published again after the withdrawal
      ],
      { BD: 10 },
    );
    expect(rows.map((r) => [r.step, r.value])).toEqual([
      [0, 10],
      [2, 15],
      [3, 33],
    ]);
    expect(rows[0].ret).toBeNull();
    expect(rows[1].ret).toBeCloseTo(15 / 10 - 1, 12);
    expect(rows[2].ret).toBeCloseTo(33 / 15 - 1, 12);
  });

  it('maps period-end stamps (23:59:59.999999 New York) to their month, across DST', async () => {
    const rows = await steps(
      { m: 'M' },
      [
        ['m', '2000-02-01T04:59:59.999Z', 1], // Jan 31 EST
        ['m', '2000-03-01T04:59:59.999Z', 2],
        ['m', '2000-04-01T04:59:59.999Z', 4], // Mar 31 EST
        ['m', '2000-05-01T03:59:59.999Z', 8], // Apr 30 EDT
      ],
      { M: 3 },
    );
    expect(rows.map((r) => [r.segment, r.step, r.ret])).toEqual([
      [0, 0, null],
      [0, 1, 1],
      [0, 2, 1],
      [1, 0, null],
    ]);
  });

  it('skips frequencies whose length is 0', async () => {
    const rows = await steps({ q: 'Q' }, [['q', '2000-04-01T04:59:59.999Z', 1]], { Q: 0 });
    expect(rows).toEqual([]);
  });
});
