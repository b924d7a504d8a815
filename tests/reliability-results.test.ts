import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Duck } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, REPO, SCRATCH, snapshot } from './helpers.ts';
import { type TinyFixture, tinyFixture } from './shared-fixtures.ts';

// Issue 52 items 4, 5 and 7 (audit reliability-2026-12 rows 10.6, 8.6d, 8.6f, 8.7f; defects 5 and 16): every
// result document a later command reads is hashed, finite values that overflow a metric are refused at the
// input with the row, and `asof run --score` checks the score's inputs before it replaces --out. Each test
// fails on the code before the fix.
const work = realpathSync(mkdtempSync(join(SCRATCH, 'reliability-results-')));
// A registry and score cache of our own: the user's $ASOF_STATE_DIR is never read or written.
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
const HOSTILE = join(REPO, 'tests', 'models', 'hostile-model.mjs');
const model = (...words: string[]) =>
  [process.execPath, HOSTILE, ...words].map((w) => JSON.stringify(w)).join(' ');
const NO_TRACE = /unexpected failure|\n\s+at /;
let tiny: TinyFixture;
let splitManifest: string;

/** `asof score` of the tiny split's baselines file into `out`. */
const score = (out: string) =>
  run('score', '--manifest', splitManifest, '--forecasts', tiny.baselines, '--out', out);

beforeAll(async () => {
  tiny = await tinyFixture();
  splitManifest = join(tiny.split, 'manifest.json');
  const r = await score('scores/a');
  expect(r.code, r.stderr).toBe(0);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('every result document a later command reads is hashed (issue 52 item 4)', () => {
  it('10.6: a score writes its own manifest (kind scores) that asof verify checks, and a rescore is the same bytes', async () => {
    const a = join(work, 'scores', 'a');
    const m = JSON.parse(readFileSync(join(a, 'manifest.json'), 'utf8'));
    expect(m.kind).toBe('scores');
    expect(m.outputs.map((o: { path: string }) => o.path)).toEqual(['results.json', 'leaderboard.md']);
    const ok = await run('verify', 'scores/a/manifest.json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok: 2 files match/);
    // A second score of the same inputs: every byte the same, the manifest included.
    const again = await score('scores/b');
    expect(again.code, again.stderr).toBe(0);
    expect(snapshot(join(work, 'scores', 'b'))).toEqual(snapshot(a));
    // And onto itself: a score folder with a manifest is still a score asof replaces.
    const before = snapshot(a);
    const over = await score('scores/a');
    expect(over.code, over.stderr).toBe(0);
    expect(snapshot(a)).toEqual(before);
  });

  it('10.6: report --results refuses a hand-edited results.json', async () => {
    const r0 = await score('scores/edited');
    expect(r0.code, r0.stderr).toBe(0);
    const file = join(work, 'scores', 'edited', 'results.json');
    const text = readFileSync(file, 'utf8');
    // As in the probe: a model name changed, the size kept.
    expect(text).toContain('"random_walk"');
    writeFileSync(file, text.replace('"model": "random_walk"', '"model": "random_wa1k"'));
    expect(readFileSync(file, 'utf8')).not.toBe(text);
    const r = await run(
      'report',
      '--manifest',
      splitManifest,
      '--results',
      'scores/edited/results.json',
      '--out',
      'edited.html',
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(NO_TRACE);
    const line = r.stderr.split('\n').find((l) => l.includes('problem(s)')) ?? '';
    const sha = (s: string) => /[0-9a-f]{64}/.test(s);
    expect(line).toMatch(
      /scores\/edited\/manifest\.json: 1 problem\(s\): results\.json sha256 \(expected [0-9a-f]{64}, got [0-9a-f]{64}\)/,
    );
    expect(sha(line)).toBe(true);
    expect(existsSync(join(work, 'edited.html'))).toBe(false);
    // asof verify names it too.
    const v = await run('verify', 'scores/edited/manifest.json');
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/results\.json: sha256 \(expected [0-9a-f]{64}, got [0-9a-f]{64}\)/);
  });

  it('10.6: report --results renders an unedited score, and refuses a results.json without its manifest', async () => {
    const r = await run(
      'report',
      '--manifest',
      splitManifest,
      '--results',
      'scores/a/results.json',
      '--out',
      'a.html',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(work, 'a.html'), 'utf8')).toContain('random_walk');
    // A results.json taken out of its folder cannot be checked.
    writeFileSync(join(work, 'loose-results.json'), readFileSync(join(work, 'scores', 'a', 'results.json')));
    const loose = await run(
      'report',
      '--manifest',
      splitManifest,
      '--results',
      'loose-results.json',
      '--out',
      'loose.html',
    );
    expect(loose.code, loose.stderr).toBe(2);
    expect(loose.stderr.trim().split('\n').at(-1)).toMatch(
      /loose-results\.json: no manifest\.json beside it, so its bytes cannot be checked/,
    );
    expect(existsSync(join(work, 'loose.html'))).toBe(false);
  });
});

describe('finite values that overflow a metric are caught at the input with the row (issue 52 item 5)', () => {
  it('8.6d: asof score refuses a finite 1e308 forecast where it reads it, naming file, line and field', async () => {
    const csv = join(work, 'huge.csv');
    writeFileSync(csv, 'model,series_id,origin,step,value\nhuge,syn:fred:SYNCPI,2020-01-01,1,1e308\n');
    const r = await run('score', '--manifest', splitManifest, '--forecasts', csv, '--out', 'huge-score');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.stderr).not.toMatch(/hitRate|METRIC_/);
    expect(r.stderr.trim().split('\n').at(-1)).toContain(
      `${csv} line 2, field value: 1e+308 is beyond ±1e15`,
    );
    expect(existsSync(join(work, 'huge-score'))).toBe(false);
  });

  it('8.6d: the same in a Parquet file: a quantile of -1e300 is named by row and column', async () => {
    const file = join(work, 'huge-forecasts.parquet');
    const duck = await Duck.open({ threads: 1 });
    try {
      await duck.run(
        `COPY (SELECT 'huge' AS model, 'syn:fred:SYNCPI' AS series_id, '2020-01-01' AS origin, step,
                1.0::DOUBLE AS value, (CASE WHEN step = 2 THEN -1e300 ELSE 0.5 END)::DOUBLE AS "q0.5"
              FROM range(1, 4) t(step)) TO '${file}' (FORMAT parquet)`,
      );
    } finally {
      duck.close();
    }
    const r = await run('score', '--manifest', splitManifest, '--forecasts', file, '--out', 'huge-pq-score');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.stderr.trim().split('\n').at(-1)).toContain(
      `${file} row 2, field q0.5: -1e+300 is beyond ±1e15`,
    );
    expect(existsSync(join(work, 'huge-pq-score'))).toBe(false);
  });

  it('8.6d: asof run refuses a model point of 1e308 naming the batch, series and step, and writes nothing', async () => {
    const r = await run(
      'run',
      '--manifest',
      splitManifest,
      '--model',
      model('value', '1e308'),
      '--name',
      'huge',
      '--out',
      'huge.parquet',
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      /model huge, batch 1 \(origin \S+\), series \S+: point step 1 is 1e\+308, beyond ±1e15/,
    );
    expect(existsSync(join(work, 'huge.parquet'))).toBe(false);
  });
});

describe('asof run --score checks the score’s inputs before it replaces --out (issue 52 item 7)', {
  timeout: 120_000,
}, () => {
  /** `asof run --score` of the hostile model onto out/run.parquet and out/run-score. */
  const runScored = (name: string, ...words: string[]) =>
    run(
      'run',
      '--manifest',
      splitManifest,
      '--model',
      model(...words),
      '--name',
      name,
      '--out',
      'out/run.parquet',
      '--score',
      'out/run-score',
    );
  let before: Record<string, string>;

  beforeAll(async () => {
    // A good run first: the forecasts and score every refused run below must leave as they are.
    const r = await runScored('good', 'answer');
    expect(r.code, r.stderr).toBe(0);
    before = snapshot(join(work, 'out'));
  }, 120_000);

  it('a run that scores writes a score folder asof verify accepts, naming --out as its forecasts', async () => {
    const v = await run('verify', 'out/run-score/manifest.json');
    expect(v.code, v.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(work, 'out', 'run-score', 'results.json'), 'utf8'));
    expect(results.forecasts.map((f: { path: string }) => f.path)).toEqual([
      join(work, 'out', 'run.parquet'),
    ]);
    expect(results.runs[0].model).toBe('good');
  });

  it('8.7f: run --score of a model that skips every pair exits 2 and leaves --out and --score as they were', async () => {
    const r = await runScored('skipper', 'skip');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.stderr.trim().split('\n').at(-1)).toMatch(
      /model skipper skipped all \d+ \(series, origin\) pairs, so there is nothing to score; nothing was written/,
    );
    expect(snapshot(join(work, 'out'))).toEqual(before);
  });

  it('8.6f: run --score of negative points on a positive series exits 2, naming --out, and leaves both as they were', async () => {
    const r = await runScored('negative', 'value', '-5');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(NO_TRACE);
    const last = r.stderr.trim().split('\n').at(-1) ?? '';
    expect(last).toMatch(/is positive throughout the split/);
    // The file the user named, not the temp file the score read.
    expect(last).toContain(join(work, 'out', 'run.parquet'));
    expect(last).not.toMatch(/\.asof/);
    expect(snapshot(join(work, 'out'))).toEqual(before);
  });
});
