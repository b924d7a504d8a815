import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import { sandboxAvailable } from '@asof/runner';
import { runSplit } from '@asof/split';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asof, REPO, removeOutput, scratchOut } from './helpers.ts';
import { pythonWith, requirePython } from './python-available.ts';
import { CANARY_T, canaryFixture } from './shared-fixtures.ts';

// The leakage canary for asof run (issue 17): poison every row published after t in the universe (same
// timestamps, wild values), rebuild the split, run the Python example through the runner: every forecast
// for an origin <= t must be bit-identical. A model that reads the answers from disk instead (the split's
// targets.parquet, or the universe's files) is caught: its forecasts for origins <= t move — or, where the
// model runs in the bubblewrap sandbox (issue 52), it cannot open those files at all.
// The universes are the run's shared canary (shared-fixtures.ts: built once, read only).
const T = CANARY_T;
const clean = { abs: '' };
const poisoned = { abs: '' };
const splitClean = scratchOut('run-canary-split-clean');
const splitPoisoned = scratchOut('run-canary-split-poisoned');
const outputs: string[] = [];
afterAll(() => {
  for (const d of [splitClean, splitPoisoned]) removeOutput(d.abs);
  for (const f of outputs) removeOutput(f);
});
const python = pythonWith('import json, statistics');
const hasPython = requirePython(python, 'python3', 'the runner canary');
const TSX = join(REPO, 'node_modules', '.bin', 'tsx');
const CHEAT = join(REPO, 'tests', 'models', 'cheating-model.ts');
// Where bubblewrap works (CI installs it) the cheater cannot see the answers at all; elsewhere the canary's
// comparison is what catches it.
const sandboxed = sandboxAvailable().ok;

beforeAll(async () => {
  const canary = await canaryFixture();
  clean.abs = canary.clean;
  poisoned.abs = canary.poisoned;
  // Every origin (not one per horizon) of the year around t: many origins before t, and batches on both sides
  // of it. The universe's evaluation runs 2020–2022; the origins far from t add forecasts to compare, not cases
  // (issue 50: 52 MB of forecasts per model before).
  const options = { origins: 'all' as const, embargo: 'P7D', evalStart: '2021-01-01', runDate: '2021-12-31' };
  await runSplit({ manifestPath: join(clean.abs, 'manifest.json'), outDir: splitClean.abs, ...options });
  await runSplit({
    manifestPath: join(poisoned.abs, 'manifest.json'),
    outDir: splitPoisoned.abs,
    ...options,
  });
}, 900_000);

/** Runs a model on a split through `asof run`; returns the forecasts file. */
async function runOn(split: { rel: string }, model: string, name: string): Promise<string> {
  const { file, r } = await tryRunOn(split, model, name);
  expect(r.code, r.stderr).toBe(0);
  return file;
}

/** `asof run` of a model on a split: the forecasts file it writes (if it succeeds) and the CLI result. */
async function tryRunOn(split: { rel: string }, model: string, name: string) {
  const out = scratchOut(`${name}-${split.rel.includes('poisoned') ? 'poisoned' : 'clean'}`);
  outputs.push(out.abs);
  const file = `${out.rel}.parquet`;
  outputs.push(join(REPO, file));
  const r = await asof(
    'run',
    '--manifest',
    `${split.rel}/manifest.json`,
    '--model',
    model,
    '--name',
    name,
    '--out',
    file,
  );
  return { file: join(REPO, file), r };
}

interface Row {
  key: string;
  before: boolean;
  cells: unknown[];
}

async function rowsOf(file: string): Promise<Row[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    const rows = await duck.all<Record<string, unknown>>(
      // origin is a TIMESTAMPTZ (as in the split): as epoch µs, so Object.is compares it by value.
      `SELECT * REPLACE (epoch_us(origin) AS origin), origin <= ${quoteLiteral(T.replace('Z', '.000000Z'))} AS before
       FROM read_parquet(${quoteLiteral(file)}) ORDER BY series_id, origin, step`,
    );
    return rows.map(({ before, ...r }) => ({
      key: `${r.series_id}|${r.origin}|${r.step}`,
      before: before as boolean,
      cells: Object.values(r),
    }));
  } finally {
    duck.close();
  }
}

/** The rows of two runs before and after t, and whether each differs in any cell (Object.is: bit for bit). */
async function compare(a: string, b: string) {
  const [x, y] = [await rowsOf(a), await rowsOf(b)];
  expect(y.map((r) => r.key)).toEqual(x.map((r) => r.key));
  const differs = (i: number) => x[i].cells.some((c, j) => !Object.is(c, y[i].cells[j]));
  const before = x.map((_, i) => i).filter((i) => x[i].before);
  const after = x.map((_, i) => i).filter((i) => !x[i].before);
  return {
    before: before.length,
    after: after.length,
    beforeDiffer: before.filter(differs).length,
    afterDiffer: after.filter(differs).length,
  };
}

describe('runner canary: a model behind asof run sees nothing published after its origin', {
  timeout: 900_000,
}, () => {
  it.skipIf(!hasPython)(
    'python ewma: every forecast for origins <= t is bit-identical; later ones move',
    async () => {
      const model = `${python} ${join(REPO, 'examples', 'python', 'ewma_model.py')}`;
      const a = await runOn(splitClean, model, 'ewma');
      const b = await runOn(splitPoisoned, model, 'ewma');
      const c = await compare(a, b);
      expect(c.before).toBeGreaterThan(10_000);
      expect(c.beforeDiffer).toBe(0);
      // The poison is real: the forecasts of origins after t see it.
      expect(c.after).toBeGreaterThan(10_000);
      expect(c.afterDiffer).toBeGreaterThan(c.after / 2);
    },
  );

  it.each([
    [
      'the split’s targets.parquet',
      (split: { abs: string }) => `--targets ${join(split.abs, 'targets.parquet')}`,
    ],
    [
      'the universe’s observations',
      (split: { abs: string }) => `--universe ${split === splitClean ? clean.abs : poisoned.abs}`,
    ],
  ])(
    'catches a model that reads %s from disk: it cannot open it (sandbox), or its forecasts for origins <= t move',
    async (_what, source) => {
      // CI installs bubblewrap and requires it (.ci/run): there the comparison alone is not enough.
      if (process.env.ASOF_TEST_REQUIRE_SANDBOX === '1')
        expect(sandboxed, 'bubblewrap must work here').toBe(true);
      if (sandboxed) {
        // Issue 52: in the sandbox the answers are not there to read; the cheater fails on its own read.
        for (const split of [splitClean, splitPoisoned]) {
          const { file, r } = await tryRunOn(split, `${TSX} ${CHEAT} ${source(split)}`, 'cheat');
          expect(r.code, r.stderr).toBe(1);
          expect(r.stderr).toMatch(/model sandboxed \(bubblewrap/);
          expect(r.stderr).toMatch(/model cheat, hello: the model exited with status 1/);
          expect(r.stderr).toMatch(/No files found|does not exist|IO Error/);
          expect(existsSync(file)).toBe(false);
        }
        return;
      }
      const a = await runOn(splitClean, `${TSX} ${CHEAT} ${source(splitClean)}`, 'cheat');
      const b = await runOn(splitPoisoned, `${TSX} ${CHEAT} ${source(splitPoisoned)}`, 'cheat');
      const c = await compare(a, b);
      expect(c.before).toBeGreaterThan(10_000);
      expect(c.beforeDiffer).toBeGreaterThan(1000);
    },
  );
});
