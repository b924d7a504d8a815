import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, REPO } from './helpers.ts';
import { pythonWith, requirePython } from './python-available.ts';
import { linkShared, tinyFixture } from './shared-fixtures.ts';

// Issue 17: every example model runs through `asof run` on a small split and is scored; a failing model
// ends the command with exit 1 and one line naming the origin and series.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-run-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
const TSX = join(REPO, 'node_modules', '.bin', 'tsx');
const example = (path: string) => join(REPO, 'examples', path);
const python = pythonWith('import json, statistics');
const hasPython = requirePython(python, 'python3', 'the Python example models');

let pairs = 0;
let points = 0;
beforeAll(async () => {
  // The run's shared tiny universe and its default split, linked: the models only read them.
  const tiny = await tinyFixture();
  linkShared(work, { u: tiny.universe, s: tiny.split });
  const [o] = await query<{ n: bigint; h: bigint }>(
    `SELECT count(*) AS n, sum(horizon_steps) AS h FROM read_parquet(${quoteLiteral(join(work, 's', 'origins.parquet'))})`,
  );
  pairs = Number(o.n);
  points = Number(o.h);
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function query<T>(sql: string): Promise<T[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return (await duck.all(sql)) as T[];
  } finally {
    duck.close();
  }
}

/** model, series, origin, step → value (and the quantile columns) of a forecasts file; origin as an instant (a CSV holds it as text, asof's Parquet files as a timestamp). */
async function values(file: string, columns = 'value'): Promise<string[]> {
  const src = file.endsWith('.csv')
    ? `read_csv(${quoteLiteral(file)}, types = {'origin': 'VARCHAR'})`
    : `read_parquet(${quoteLiteral(file)})`;
  const rows = await query<Record<string, unknown>>(
    `SELECT series_id, origin::TIMESTAMPTZ::VARCHAR AS origin, step, ${columns} FROM ${src} ORDER BY series_id, origin, step`,
  );
  return rows.map((r) => Object.values(r).join('|'));
}

/** Runs a model through asof run and checks the run: every pair answered, the guard counted, the hint. */
async function runModel(model: string, name: string, extra: string[] = []) {
  const r = await run(
    'run',
    '--manifest',
    's/manifest.json',
    '--model',
    model,
    '--name',
    name,
    '--out',
    `${name}.parquet`,
    ...extra,
  );
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(
    new RegExp(`^model ${name}: ${pairs} of ${pairs} \\(series, origin\\) pairs forecast`, 'm'),
  );
  expect(r.stdout).toMatch(new RegExp(`^guard +${pairs} historyAt requests, [\\d,]+ rows checked`, 'm'));
  expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^next: /);
  const [n] = await query<{ n: bigint }>(
    `SELECT count(*) AS n FROM read_parquet(${quoteLiteral(join(work, `${name}.parquet`))})`,
  );
  expect(Number(n.n)).toBe(points);
  return r;
}

function scored(dir: string) {
  return {
    results: JSON.parse(readFileSync(join(work, dir, 'results.json'), 'utf8')),
    leaderboard: readFileSync(join(work, dir, 'leaderboard.md'), 'utf8'),
  };
}

describe('asof run: the example models on a small split', { timeout: 300_000 }, () => {
  it.skipIf(!hasPython)(
    'python3 examples/python/ewma_model.py, scored: on the leaderboard with its guard checks',
    async () => {
      const r = await runModel(`${python} ${example('python/ewma_model.py')}`, 'ewma', [
        '--score',
        'ewma-score',
      ]);
      expect(r.stderr).toMatch(/^next: cat ewma-score\/leaderboard\.md/m);
      const { results, leaderboard } = scored('ewma-score');
      expect(results.models.map((m: { model: string }) => m.model)).toContain('ewma');
      expect(results.models.find((m: { model: string }) => m.model === 'ewma').crps_kind).toBe('quantiles');
      expect(results.runs).toHaveLength(1);
      const run0 = results.runs[0];
      expect(run0).toMatchObject({
        model: 'ewma',
        protocol_version: 1,
        forecast_kind: 'quantiles',
        pairs: { asked: pairs, forecast: pairs, skipped: 0 },
        model_reported: { name: 'ewma', version: '1' },
      });
      expect(run0.guard.requests).toBe(pairs);
      expect(run0.fit.rows).toBeGreaterThan(10_000);
      const script = run0.files.find((f: { path: string }) => f.path.endsWith('ewma_model.py'));
      expect(script.bytes).toBe(readFileSync(example('python/ewma_model.py')).length);
      expect(leaderboard).toMatch(/## Model runs \(asof run, behind the look-ahead guard\)/);
      expect(leaderboard).toContain(
        `| ewma | ${pairs} of ${pairs} pairs | ${pairs} requests, ${run0.guard.rows} rows |`,
      );
      // Issue 52: how the model was confined, in results.json and beside its rank.
      expect(['bubblewrap', 'none']).toContain(run0.sandbox.kind);
      expect(leaderboard).toMatch(
        run0.sandbox.kind === 'none' ? /\| none: could read the answers/ : /\| bubblewrap: no network/,
      );
    },
  );

  it.skipIf(!hasPython)(
    'python3 examples/python/seasonal_model.py is the seasonal naive baseline, step for step',
    async () => {
      await runModel(`${python} ${example('python/seasonal_model.py')}`, 'seasonal');
      const b = await run('baselines', '--manifest', 's/manifest.json', '--out', 'baselines.parquet');
      expect(b.code, b.stderr).toBe(0);
      const base = await query<{ series_id: string; origin: string; step: number; value: number }>(
        `SELECT series_id, origin::TIMESTAMPTZ::VARCHAR AS origin, step, value FROM read_parquet(${quoteLiteral(join(work, 'baselines.parquet'))})
       WHERE model = 'seasonal_naive' ORDER BY series_id, origin, step`,
      );
      expect(base.map((x) => `${x.series_id}|${x.origin}|${x.step}|${x.value}`)).toEqual(
        await values(join(work, 'seasonal.parquet')),
      );
      const s = await run(
        'score',
        '--manifest',
        's/manifest.json',
        '--forecasts',
        'seasonal.parquet',
        '--out',
        'seasonal-score',
      );
      expect(s.code, s.stderr).toBe(0);
      expect(scored('seasonal-score').results.runs[0].fit).toBeNull();
    },
  );

  it('examples/typescript: ewma and seasonal through the protocol, the same forecasts as their twins', async () => {
    await runModel(`${TSX} ${example('typescript/ewma-model.ts')}`, 'ewma-ts', ['--score', 'ewma-ts-score']);
    expect(scored('ewma-ts-score').results.runs[0].model).toBe('ewma-ts');
    await runModel(`${TSX} ${example('typescript/seasonal-model.ts')}`, 'seasonal-ts');
    if (hasPython)
      expect(await values(join(work, 'seasonal-ts.parquet'))).toEqual(
        await values(join(work, 'seasonal.parquet')),
      );
  });

  it('examples/typescript/in-process-ewma.ts: the HistoryStore API in-process, the runner’s numbers', async () => {
    const r = spawnSync(
      TSX,
      [
        example('typescript/in-process-ewma.ts'),
        '--universe',
        'u',
        '--split',
        's',
        '--out',
        'in-process.csv',
      ],
      { cwd: work, encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`for ${pairs} origins .* guard: ${pairs} historyAt requests`));
    const s = await run(
      'score',
      '--manifest',
      's/manifest.json',
      '--forecasts',
      'in-process.csv',
      '--out',
      'in-process-score',
    );
    expect(s.code, s.stderr).toBe(0);
    expect(scored('in-process-score').results.models.map((m: { model: string }) => m.model)).toContain(
      'ewma-in-process',
    );
    // The same EW mean from the universe's HistoryStore as from the inputs the runner served: the runner
    // serves at each origin exactly what historyAt does.
    expect(await values(join(work, 'in-process.csv'))).toEqual(await values(join(work, 'ewma-ts.parquet')));
  });

  it('a model that crashes: exit 1, one line naming the origin and series, no forecasts file', async () => {
    const crash = `${process.execPath} ${join(REPO, 'packages/runner/test-models/fake-model.mjs')} crash`;
    const r = await run(
      'run',
      '--manifest',
      's/manifest.json',
      '--model',
      crash,
      '--name',
      'crash',
      '--out',
      'crash.parquet',
    );
    expect(r.code).toBe(1);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(
      /^asof run: model crash, batch 2 \(origin \d{4}-[\d-]+T[\d:.]+Z, series \S+.*\): the model exited with status 3; its last stderr line: "fake: segmentation fault \(pretend\)"$/,
    );
    expect(r.stderr).toMatch(/^model: fake: segmentation fault \(pretend\)$/m);
    expect(existsSync(join(work, 'crash.parquet'))).toBe(false);
  });
});
