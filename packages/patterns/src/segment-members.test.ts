import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSegmentModel } from './run-segment-model.ts';

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
  await duck.run(
    `CREATE TABLE segment_stats (series_id VARCHAR, segment INTEGER, frequency VARCHAR, detail_category VARCHAR,
       first_timestamp TIMESTAMPTZ)`,
  );
  await duck.run('CREATE TABLE series (series_id VARCHAR, entity_id VARCHAR)');
  await duck.run(
    'CREATE TABLE member_spans (entity_id VARCHAR, "from" TIMESTAMPTZ, "to" TIMESTAMPTZ, member BOOLEAN)',
  );
});
afterEach(() => duck.close());

describe('segment_members model', () => {
  it('checks each entity at the instant its cross-section formed (its earliest first step)', async () => {
    // Cross-section (X, BD, 4): a, b, c, d start 2021-01-04; e's first step in the segment is 2021-01-11.
    for (const [id, entity, first] of [
      ['a', 'A', '2021-01-04'],
      ['b', 'B', '2021-01-04'],
      ['c', 'C', '2021-01-04'],
      ['d', null, '2021-01-04'],
      ['e', 'E', '2021-01-11'],
    ] as const) {
      await duck.run('INSERT INTO series VALUES ($id, $entity)', { id, entity });
      await duck.run(`INSERT INTO segment_stats VALUES ($id, 4, 'BD', 'X', $t::TIMESTAMPTZ)`, {
        id,
        t: `${first}T21:00:00Z`,
      });
    }
    await duck.run(
      `INSERT INTO member_spans VALUES
         -- A leaves the universe in the middle of the segment: still in its cross-section.
         ('A', NULL, '2021-03-01 00:00:00+00', true), ('A', '2021-03-01 00:00:00+00', NULL, false),
         -- B joins a week into the segment: not in it.
         ('B', NULL, '2021-01-08 00:00:00+00', false), ('B', '2021-01-08 00:00:00+00', NULL, true),
         -- E is a member throughout; the cross-section formed before its own first step.
         ('E', NULL, NULL, true)`,
    );
    await runSegmentModel(duck, 'segment_members', {});
    const rows = await duck.all<{ series_id: string; formed: string; member: boolean }>(
      `SELECT series_id, strftime(formed_at, '%Y-%m-%d') AS formed, member FROM segment_members ORDER BY series_id`,
    );
    expect(rows).toEqual([
      { series_id: 'a', formed: '2021-01-04', member: true },
      { series_id: 'b', formed: '2021-01-04', member: false },
      // C has no spans (nothing names it) and d no entity: members.
      { series_id: 'c', formed: '2021-01-04', member: true },
      { series_id: 'd', formed: '2021-01-04', member: true },
      { series_id: 'e', formed: '2021-01-04', member: true },
    ]);
  });
});
