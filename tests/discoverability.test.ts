import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn } from './helpers.ts';
import { linkShared, tinyFixture } from './shared-fixtures.ts';

// Issue 16: a newcomer finds series, reads them in their own period terms, cuts a small split and scores
// it from the split manifest alone; every command says what to run next.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-discover-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);

beforeAll(async () => {
  // The run's shared tiny universe (built with `asof build tiny.json --out u`), linked as `u`: read only.
  const tiny = await tinyFixture();
  expect(tiny.buildLog).toMatch(/^next: asof series --data u --search cpi$/m);
  linkShared(work, { u: tiny.universe });
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('finding series', () => {
  it('asof series --search cpi lists the CPI-like series with their periods', async () => {
    const r = await run('series', '--data', 'u', '--search', 'cpi', '--json');
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.map((x: { series_id: string }) => x.series_id)).toEqual([
      'syn:fred:SYNCORECPI',
      'syn:fred:SYNCPI',
    ]);
    expect(rows[1]).toMatchObject({
      taxonomy_unit: 'Country/Macro Indicators/Inflation/M',
      first_period: '2012-01',
      last_period: expect.stringMatching(/^2021-\d\d$/),
      eval_target: true,
    });
    expect(r.stderr).toMatch(/^next: asof show syn:fred:SYNCORECPI --data u$/m);
    const table = await run('series', '--data', 'u', '--frequency', 'M');
    expect(table.stdout).toMatch(/syn:fred:SYNCPI\s+Synthetic CPI, all items/);
    expect(table.stdout).toMatch(/^2 series$/m);
    const bars = JSON.parse(
      (await run('series', '--data', 'u', '--search', 'EQ0001 close', '--json')).stdout,
    );
    expect(bars.map((x: { series_id: string }) => x.series_id)).toEqual(['syn:px:EQ0001:close']);
  });

  it('show of a misspelt id suggests the right one; show prints each row’s period', async () => {
    const miss = await run('show', 'syn:fred:SYNCIP', '--data', 'u');
    expect(miss.code).toBe(2);
    expect(miss.stderr).toMatch(/did you mean syn:fred:SYNCPI\b/);
    const shown = await run('show', 'syn:fred:SYNCPI', '--data', 'u', '--as-of', '2016-01-01', '--json');
    const rows = JSON.parse(shown.stdout);
    expect(rows[0].period).toBe('2012-01');
    expect(rows[0].timestamp).toBe('2012-02-01T04:59:59.999999Z');
    // Known on 2016-01-01: at most the November or December 2015 value, never January 2016.
    expect(rows.at(-1).period < '2016-01').toBe(true);
    expect(shown.stderr).toMatch(/^next: /m);
  });

  it('asof --version names asof and DuckDB', async () => {
    const v = await run('--version');
    expect(v.stdout).toMatch(/^asof \d+\.\d+\.\d+\nDuckDB v1\.5\.6/);
  });
});

describe('a small split, scored from its manifest alone', () => {
  it('split --series / --frequency / --unit keep only those series; the split carries its tasks', async () => {
    const r = await run(
      'split',
      '--manifest',
      'u/manifest.json',
      '--out',
      's',
      '--series',
      'syn:fred:*',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m.config.series_filter).toEqual({ series: ['syn:fred:*'] });
    expect(m.summary.eval_series).toBe(2);
    expect(r.stderr).toMatch(/^next: asof baselines --manifest s\/manifest.json --out s-baselines.parquet$/m);
    const f = await run(
      'split',
      '--manifest',
      'u/manifest.json',
      '--out',
      's-m',
      '--frequency',
      'M',
      '--json',
    );
    expect(JSON.parse(f.stdout).summary.eval_series).toBe(2);
    const u = await run(
      'split',
      '--manifest',
      'u/manifest.json',
      '--out',
      's-u',
      '--unit',
      'Individual/Equity/Equity OHLCV Close/BD',
      '--json',
    );
    expect(u.code, u.stderr).toBe(0);
    expect(JSON.parse(u.stdout).summary.eval_series).toBe(11);
    const none = await run(
      'split',
      '--manifest',
      'u/manifest.json',
      '--out',
      's-none',
      '--unit',
      'Macro/Nothing/Here/M',
    );
    expect(none.code).toBe(2);
    // A unit the universe does not have is refused by name with the nearest units (issue 52 item 8).
    expect(none.stderr).toMatch(
      /--unit Macro\/Nothing\/Here\/M: no such taxonomy unit in \S*u\/manifest.json; did you mean [^\n]*\/M\b/,
    );
    expect(none.stderr).toMatch(/hint: a unit is Scope\/Category\/Detail category\/Frequency/);
  }, 120_000);

  it('asof score needs nothing but the split manifest', async () => {
    const b = await run('baselines', '--manifest', 's/manifest.json', '--out', 'b.parquet');
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(
      /^next: asof score --manifest s\/manifest.json --forecasts b.parquet --out b-score$/m,
    );
    const s = await run(
      'score',
      '--manifest',
      's/manifest.json',
      '--forecasts',
      'b.parquet',
      '--out',
      'b-score',
    );
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toMatch(/random_walk/);
    expect(s.stderr).toMatch(/^next: cat b-score\/leaderboard.md/m);
  }, 120_000);
});
