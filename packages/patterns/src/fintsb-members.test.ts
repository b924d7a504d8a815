import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSegmentModel } from './run-segment-model.ts';

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
  // fintsb_members draws from fintsb_candidates (one series per instrument and segment, one field, all
  // characteristics defined: see fintsb-candidates.test.ts); here each series is its own instrument.
  await duck.run(
    `CREATE TABLE fintsb_candidates (series_id VARCHAR, segment INTEGER, frequency VARCHAR, detail_category VARCHAR,
       first_timestamp TIMESTAMPTZ, last_timestamp TIMESTAMPTZ, instrument VARCHAR, field VARCHAR, pattern VARCHAR)`,
  );
});
afterEach(() => duck.close());

async function given(rows: [string, number, string | null][]) {
  for (const [id, seg, pattern] of rows) {
    await duck.run(
      `INSERT INTO fintsb_candidates VALUES ($id, $seg, 'BD', 'X', NULL, NULL, $id, 'close', $pattern)`,
      { id, seg, pattern },
    );
  }
}

describe('fintsb_members model', () => {
  it('cuts each (pattern, segment) pool into disjoint datasets of k, most recent segment first', async () => {
    const rows: [string, number, string | null][] = [];
    for (let i = 0; i < 7; i++) rows.push([`s${i}`, 3, 'uptrend']); // 7 → 2 datasets of 3 (1 left over)
    for (let i = 0; i < 4; i++) rows.push([`s${i}`, 2, 'uptrend']); // 4 → 1 dataset
    for (let i = 0; i < 3; i++) rows.push([`s${i}`, 1, 'uptrend']); // 3 → 1 (beyond $datasets)
    for (let i = 0; i < 3; i++) rows.push([`d${i}`, 3, 'downtrend']);
    rows.push(['u0', 3, null]); // the quota remainder: no dataset
    await given(rows);
    await runSegmentModel(duck, 'fintsb_members', { k: 3, datasets: 3 });
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
    expect(pairs).not.toContain('u0@3');
  });
});
