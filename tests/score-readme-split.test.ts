import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dieboldMariano, readParquetColumns, ScoringResults } from '@asof/scoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn } from './helpers.ts';
import { defaultFixture, linkShared } from './shared-fixtures.ts';

// Issue 51 items 5 and 6 on the README's split ("Your first benchmark": the 24 synthetic ALFRED series, model
// cutoff 2021-12-31, run date 2025-12-31): a second score with one new model reuses the scorer's baselines and
// writes the bytes a cold score of the same inputs writes; every score exists per window; --window T2 gives
// the T2 section's numbers.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-score-readme-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const read = (dir: string) =>
  ScoringResults.parse(JSON.parse(readFileSync(join(work, dir, 'results.json'), 'utf8')));
const logs: Record<string, string> = {};
let skippedSteps = 0;

beforeAll(async () => {
  const d = await defaultFixture();
  linkShared(work, { default: d.universe });
  for (const argv of [
    [
      'split',
      '--manifest',
      'default/manifest.json',
      '--out',
      'first-split',
      '--model-cutoff',
      '2021-12-31',
      '--run-date',
      '2025-12-31',
      '--series',
      'syn:fred:*',
    ],
    ['baselines', '--manifest', 'first-split/manifest.json', '--out', 'first-baselines.parquet'],
  ]) {
    const r = await run(...argv);
    expect(r.code, r.stderr).toBe(0);
  }
  // The new model: a copy of the random walk, 0.1% higher (as the issue's second score).
  const b = await readParquetColumns(join(work, 'first-baselines.parquet'), [
    'model',
    'series_id',
    'origin',
    'step',
    'value',
  ]);
  const rows = ['model,series_id,origin,step,value'];
  for (let i = 0; i < b.rows; i++) {
    if (b.columns.model[i] !== 'random_walk') continue;
    const o = b.columns.origin[i];
    rows.push(
      `rw_copy,${b.columns.series_id[i]},${o instanceof Date ? o.toISOString() : String(o)},${b.columns.step[i]},${Number(b.columns.value[i]) * 1.001}`,
    );
  }
  writeFileSync(join(work, 'rw-copy.csv'), `${rows.join('\n')}\n`);
  // The same copy renamed, skipping one (series, origin) pair: the first data row's path (issue 51 item 7).
  const [, first] = rows;
  const [, skipSeries, skipOrigin] = first.split(',');
  const skip = rows
    .slice(1)
    .filter((line) => {
      const [, series, origin] = line.split(',');
      return !(series === skipSeries && origin === skipOrigin);
    })
    .map((line) => line.replace(/^rw_copy,/, 'rw_skip,'));
  skippedSteps = rows.length - 1 - skip.length;
  writeFileSync(join(work, 'rw-skip.csv'), `${['model,series_id,origin,step,value', ...skip].join('\n')}\n`);
  const score = async (name: string, ...extra: string[]) => {
    const r = await run(
      'score',
      '--manifest',
      'first-split/manifest.json',
      '--forecasts',
      'first-baselines.parquet',
      ...extra,
      '--out',
      name,
    );
    expect(r.code, r.stderr).toBe(0);
    logs[name] = r.stderr;
  };
  await score('first-score');
  await score('second-score', '--forecasts', 'rw-copy.csv');
  await score('cold-score', '--forecasts', 'rw-copy.csv', '--no-cache');
  await score('t2-score', '--forecasts', 'rw-copy.csv', '--window', 'T2');
  await score('skip-score', '--forecasts', 'rw-copy.csv', '--forecasts', 'rw-skip.csv');
}, 600_000);

describe('asof score on the README split (issue 51 items 5 and 6)', () => {
  it('the second score reuses the baselines and does not read the baselines file again', () => {
    expect(logs['first-score']).toMatch(/baselines made/);
    expect(logs['second-score']).toMatch(/baselines reused/);
    expect(logs['second-score']).not.toMatch(/baselines made/);
    expect(logs['second-score']).toMatch(
      /first-baselines\.parquet: the scorer's own baselines .* not read again/,
    );
    expect(logs['cold-score']).toMatch(/baselines made/);
  });

  it('its results.json and leaderboard have the same bytes as a cold score of the same inputs', () => {
    for (const f of ['results.json', 'leaderboard.md'])
      expect(readFileSync(join(work, 'second-score', f), 'utf8')).toBe(
        readFileSync(join(work, 'cold-score', f), 'utf8'),
      );
  });

  it('scores T1 and T2 on their own, with values that differ from the pooled ones', () => {
    const r = read('second-score');
    expect(r.windows.map((w) => w.window).slice(0, 2)).toEqual(['T1', 'T2']);
    const [t1, t2] = r.windows;
    const key = (v: ScoringResults['values'][number]) => `${v.model}|${v.unit}|${v.metric}`;
    const pooled = new Map(r.values.map((v) => [key(v), v.value]));
    let differ = 0;
    for (const w of [t1, t2]) {
      for (const v of w.values) if (v.value !== null && pooled.get(key(v)) !== v.value) differ++;
      expect(w.ranks.overall.models.length).toBeGreaterThan(1);
      expect(w.verdicts.rows.some((x) => x.unit === '*' && x.model === 'rw_copy')).toBe(true);
    }
    expect(differ).toBeGreaterThan(50);
    expect(r.memorisation_gap.some((g) => g.model === 'rw_copy' && g.gap !== null)).toBe(true);
    const md = readFileSync(join(work, 'second-score', 'leaderboard.md'), 'utf8');
    expect(md).toContain('## Scores per knowledge window');
    expect(md).toContain('## Memorisation gap (T1 − T2)');
  });

  it('--window T2 gives the T2 section’s numbers', () => {
    const all = read('second-score');
    const only = read('t2-score');
    const t2 = all.windows.find((w) => w.window === 'T2')!;
    expect(only.config.window).toBe('T2');
    expect(only.values).toEqual(t2.values);
    expect(only.pooled).toEqual(t2.pooled);
    expect(only.verdicts).toEqual(t2.verdicts);
    expect(only.ranks).toEqual(t2.ranks);
  });

  it('every pooled and per-unit verdict recomputes from results.json losses', () => {
    const r = read('second-score');
    const l = r.losses!;
    const rw = l.models.find((m) => m.model === 'random_walk')!;
    let n = 0;
    for (const row of r.verdicts.rows) {
      const m = l.models.find((x) => x.model === row.model)!;
      const idx = l.origins.unit.flatMap((u, i) =>
        (row.unit === '*' || u === row.unit) && m.squared_error[i] !== null ? [i] : [],
      );
      expect(idx.length).toBe(row.n);
      if (row.n < 2) continue;
      const se = dieboldMariano(
        idx.map((i) => m.squared_error[i]!),
        idx.map((i) => rw.squared_error[i]!),
      );
      const cr = dieboldMariano(
        idx.map((i) => m.crps[i]!),
        idx.map((i) => m.random_walk_crps[i]!),
      );
      const f = (x: number) => (Number.isFinite(x) ? x : null);
      expect([f(se.statistic), f(cr.statistic)]).toEqual([
        row.squared_error?.statistic ?? null,
        row.crps?.statistic ?? null,
      ]);
      n++;
    }
    expect(n).toBeGreaterThan(10);
  });

  it('ranks a model that skips one pair on the points it shares with the others, naming the family (item 7)', () => {
    const r = read('skip-score');
    const task = r.comparison.task_set;
    expect(skippedSteps).toBeGreaterThan(0);
    const names = r.ranks.overall.models.map((m) => m.model);
    expect(names).toContain('rw_skip');
    expect(names).toContain('rw_copy');
    expect(r.ranks.overall.points).toEqual({
      origins: task.origins - 1,
      points: task.points - skippedSteps,
      share: (task.points - skippedSteps) / task.points,
    });
    // Every ranking, in every window and beside every partial model, names its family and metrics.
    const blocks = [r, ...r.windows].flatMap((x) => [
      x.ranks.overall,
      ...Object.values(x.ranks.by_scope),
      ...Object.values(x.ranks.by_category),
      ...Object.values(x.ranks.by_frequency),
      ...x.same_points.map((p) => p.ranks),
    ]);
    expect(blocks.length).toBeGreaterThan(20);
    for (const b of blocks) {
      expect(b.family).toBe('finverse');
      expect(b.ranked_by).toMatch(/^FinVerse's rank aggregation \(docs\/glossary\.md\)/);
      expect(b.metrics.length).toBeGreaterThan(0);
    }
    const md = readFileSync(join(work, 'skip-score', 'leaderboard.md'), 'utf8');
    expect(md).toContain('## Overall ranking: FinVerse family');
    expect(md).toMatch(/\| rw\\_skip \| 24 \| 119 \| \d+ \| 99\.\d% \| all blocks \|/);
  });

  it('does not score GARCH where it fell back: on this split it was fitted nowhere (11 or 3 returns a window)', () => {
    const r = read('second-score');
    // Monthly windows hold 11 one-step returns, quarterly 3: fewer than GARCH(1,1)'s 30 at all 120 origins.
    expect(r.baseline_fits.find((f) => f.model === 'garch')).toEqual({
      model: 'garch',
      origins: 120,
      fitted: 0,
      fallback: 120,
      reasons: { short_window: 120 },
      no_path: 0,
      not_converged: 0,
      scored_on: 'fitted',
    });
    expect(r.config.baselines).toContain('garch');
    expect(r.models.map((m) => m.model)).not.toContain('garch');
    expect(r.values.some((v) => v.model === 'garch')).toBe(false);
    expect(r.losses!.models.some((m) => m.model === 'garch')).toBe(false);
    const md = readFileSync(join(work, 'second-score', 'leaderboard.md'), 'utf8');
    expect(md).toContain(
      '| garch | 120 | 0 | 120 (short\\_window 120) | 0 | 0 | not scored: fitted at no origin |',
    );
  });
});
