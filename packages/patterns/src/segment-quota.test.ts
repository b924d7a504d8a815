import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSegmentModel } from './run-segment-model.ts';
import { segmentParams } from './segment-options.ts';

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
  await duck.run(
    `CREATE TABLE segment_stats (series_id VARCHAR, segment INTEGER, frequency VARCHAR, detail_category VARCHAR,
       n_positive BIGINT, is_extreme BOOLEAN, extreme_severity DOUBLE)`,
  );
});

/** Every segment_stats row a member unless listed in `outside` (segment_members.sql's table). */
async function members(outside: [string, number][] = []): Promise<void> {
  await duck.run(
    `CREATE OR REPLACE TABLE segment_members AS SELECT series_id, segment, NULL::TIMESTAMPTZ AS formed_at, true AS member
     FROM segment_stats`,
  );
  for (const [id, seg] of outside) {
    await duck.run('UPDATE segment_members SET member = false WHERE series_id = $id AND segment = $seg', {
      id,
      seg,
    });
  }
}
afterEach(() => duck.close());

describe('segment_quota model', () => {
  it('takes ≤ 20% most severe extremes, then the top, bottom and middle 20% by positive count', async () => {
    // Cross-section (A, BD, 0) of 10: q = 2. s0…s2 have 3σ runs; s1 and s2 are the most severe.
    const given: [string, number, boolean, number][] = [
      ['s0', 100, true, 5],
      ['s1', 10, true, 9],
      ['s2', 20, true, 7],
      ['s3', 90, false, 0],
      ['s4', 80, false, 0],
      ['s5', 70, false, 0],
      ['s6', 60, false, 0],
      ['s7', 50, false, 0],
      ['s8', 40, false, 0],
      ['s9', 30, false, 0],
    ];
    for (const [id, pos, ext, sev] of given) {
      await duck.run(`INSERT INTO segment_stats VALUES ($id, 0, 'BD', 'A', $pos, $ext, $sev)`, {
        id,
        pos,
        ext,
        sev,
      });
    }
    // Another cross-section (different segment) of 4: q = 0, nothing labelled.
    for (const id of ['s0', 's1', 's2', 's3']) {
      await duck.run(`INSERT INTO segment_stats VALUES ($id, 1, 'BD', 'A', 5, true, 1)`, { id });
    }
    await members();
    await runSegmentModel(duck, 'segment_quota', segmentParams());
    const rows = await duck.all<{
      series_id: string;
      segment: number;
      quota_label: string | null;
      n: bigint;
    }>(
      'SELECT series_id, segment, quota_label, cross_section_size AS n FROM segment_quota ORDER BY segment, series_id',
    );
    // Rest of 8 ranked by n_positive: s0 s3 | s4 | s5 s6 | s7 | s8 s9 → middle starts after (8 − 2) // 2 = 3.
    expect(rows.filter((r) => r.segment === 0).map((r) => [r.series_id, r.quota_label])).toEqual([
      ['s0', 'uptrend'],
      ['s1', 'extreme'],
      ['s2', 'extreme'],
      ['s3', 'uptrend'],
      ['s4', null],
      ['s5', 'volatile'],
      ['s6', 'volatile'],
      ['s7', null],
      ['s8', 'downtrend'],
      ['s9', 'downtrend'],
    ]);
    expect(
      rows.filter((r) => r.segment === 1).every((r) => r.quota_label === null && Number(r.n) === 4),
    ).toBe(true);
  });

  it('ranks only the members of a cross-section: a non-member has no label and is not counted', async () => {
    for (let i = 0; i < 6; i++) {
      await duck.run(`INSERT INTO segment_stats VALUES ($id, 0, 'BD', 'A', $pos, false, 0)`, {
        id: `m${i}`,
        pos: 10 * (i + 1),
      });
    }
    // m5 has the most positive returns but was not a member when the cross-section formed.
    await members([['m5', 0]]);
    await runSegmentModel(duck, 'segment_quota', segmentParams());
    const rows = await duck.all<{ series_id: string; quota_label: string | null; n: bigint }>(
      'SELECT series_id, quota_label, cross_section_size AS n FROM segment_quota ORDER BY series_id',
    );
    // 5 members: q = 1; m4 leads without m5.
    expect(rows.map((r) => [r.series_id, r.quota_label, Number(r.n)])).toEqual([
      ['m0', 'downtrend', 5],
      ['m1', null, 5],
      ['m2', 'volatile', 5],
      ['m3', null, 5],
      ['m4', 'uptrend', 5],
    ]);
  });
});
