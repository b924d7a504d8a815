import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck } from '@asof/duck';
import { afterAll, describe, expect, it } from 'vitest';
import { assertTrainInvariants } from './split-invariants.ts';

// train_observations is a view, so its invariants are checked on the Parquet parts written from it: these
// files stand in for parts the view could never produce, to show each check fires.
const dir = mkdtempSync(join(tmpdir(), 'asof-train-invariants-'));
const duck = await Duck.open({ threads: 1 });
afterAll(() => duck.close());

const cutoff = '2020-03-01T00:00:00Z';
async function writePart(path: string, rows: [string, number | null][]) {
  const values = rows
    .map(([at, v]) => `(TIMESTAMPTZ '${at}', ${v === null ? 'NULL::DOUBLE' : v})`)
    .join(', ');
  await duck.writeParquet(
    `SELECT * FROM (VALUES ${values}) AS t(available_at, value) ORDER BY available_at`,
    join(dir, path),
  );
  return { path, table: 'train_observations' };
}

describe('assertTrainInvariants', () => {
  it('passes parts public before the cutoff with values, and ignores other tables', async () => {
    const good = await writePart('good.parquet', [
      ['2020-01-01T00:00:00Z', 1],
      ['2020-02-29T23:59:59Z', 2],
    ]);
    const other = await writePart('other.parquet', [['2021-01-01T00:00:00Z', null]]);
    await expect(
      assertTrainInvariants(duck, dir, [good, { ...other, table: 'inputs' }], cutoff),
    ).resolves.toBeUndefined();
  });

  it('refuses a row public at the cutoff, in any part', async () => {
    const good = await writePart('a.parquet', [['2020-01-01T00:00:00Z', 1]]);
    const late = await writePart('b.parquet', [['2020-03-01T00:00:00Z', 2]]);
    await expect(assertTrainInvariants(duck, dir, [good, late], cutoff)).rejects.toMatchObject({
      code: 'SPLIT_INVARIANT_VIOLATED',
      context: { check: 'train available_at < eval_start − embargo', count: 1 },
    });
  });

  it('refuses a withdrawal (value NULL) served as training data', async () => {
    const withdrawn = await writePart('c.parquet', [['2020-01-01T00:00:00Z', null]]);
    await expect(assertTrainInvariants(duck, dir, [withdrawn], cutoff)).rejects.toMatchObject({
      code: 'SPLIT_INVARIANT_VIOLATED',
      context: { check: 'no withdrawal (value NULL) served as training data', count: 1 },
    });
  });
});
