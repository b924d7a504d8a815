import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSegmentModel } from './run-segment-model.ts';

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
  await duck.run(
    `CREATE TABLE segments (series_id VARCHAR, segment INTEGER, frequency VARCHAR, detail_category VARCHAR,
       first_timestamp TIMESTAMPTZ, last_timestamp TIMESTAMPTZ, label VARCHAR, quota_label VARCHAR,
       adf_stat DOUBLE, acf1 DOUBLE, forecastability DOUBLE)`,
  );
});
afterEach(() => duck.close());

async function given(rows: [string, number, string, string | null, number | null][]) {
  for (const [id, seg, freq, quota, adf] of rows) {
    await duck.run(
      `INSERT INTO segments VALUES ($id, $seg, $freq, 'X', NULL, NULL, 'volatile', $quota, $adf, 0.1, 0.1)`,
      { id, seg, freq, quota, adf },
    );
  }
}

describe('fintsb_members model', () => {
  it('cuts each (pattern, segment) pool into disjoint datasets of k, most recent segment first', async () => {
    const rows: [string, number, string, string | null, number | null][] = [];
    for (let i = 0; i < 7; i++) rows.push([`s${i}`, 3, 'BD', 'uptrend', -5]); // 7 → 2 datasets of 3 (1 left over)
    for (let i = 0; i < 4; i++) rows.push([`s${i}`, 2, 'BD', 'uptrend', -5]); // 4 → 1 dataset
    rows.push(['s9', 2, 'BD', 'uptrend', null]); // no ADF: not eligible
    for (let i = 0; i < 3; i++) rows.push([`s${i}`, 1, 'BD', 'uptrend', -5]); // 3 → 1 (beyond $datasets)
    for (let i = 0; i < 9; i++) rows.push([`m${i}`, 3, 'M', 'uptrend', -5]); // other frequency
    for (let i = 0; i < 3; i++) rows.push([`d${i}`, 3, 'BD', 'downtrend', -5]);
    rows.push(['u0', 3, 'BD', null, -5]);
    await given(rows);
    await runSegmentModel(duck, 'fintsb_members', {
      frequency: 'BD',
      k: 3,
      datasets: 3,
      label_mode: 'quota',
    });
    const m = await duck.all<{ dataset: string; pattern: string; series_id: string; segment: number }>(
      'SELECT dataset, pattern, series_id, segment FROM fintsb_members ORDER BY dataset, series_id',
    );
    const datasets = [...new Set(m.map((x) => x.dataset))];
    expect(datasets).toEqual(['downtrend_1', 'uptrend_1', 'uptrend_2', 'uptrend_3']);
    for (const d of datasets) {
      const members = m.filter((x) => x.dataset === d);
      expect(members).toHaveLength(3);
      expect(new Set(members.map((x) => x.segment)).size).toBe(1);
    }
    expect(m.filter((x) => x.dataset === 'uptrend_3').every((x) => x.segment === 2)).toBe(true);
    const pairs = m.map((x) => `${x.series_id}@${x.segment}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs).not.toContain('s9@2');
  });

  it('uses the threshold label in threshold mode', async () => {
    await given([
      ['a', 0, 'BD', null, -5],
      ['b', 0, 'BD', null, -5],
    ]);
    await runSegmentModel(duck, 'fintsb_members', {
      frequency: 'BD',
      k: 2,
      datasets: 1,
      label_mode: 'threshold',
    });
    const m = await duck.all<{ dataset: string }>('SELECT DISTINCT dataset FROM fintsb_members');
    expect(m.map((x) => x.dataset)).toEqual(['volatile_1']);
  });
});
