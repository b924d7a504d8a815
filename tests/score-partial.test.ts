import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readParquetColumns, ScoringResults } from '@asof/scoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn } from './helpers.ts';
import { linkShared, tinyFixture } from './shared-fixtures.ts';

// Issue 16 points 3 and 4 through the CLI: a hand-written forecast for two series, origins given as
// period labels, is scored on its 24 points against the baselines on the same 24; a full-coverage model
// and the partial one share one leaderboard that states the comparison sets; a half-covered origin and an
// origin that matches nothing are refused with exit 2, naming the file, row, value and the nearest origins.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-score-partial-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const CPI = 'syn:fred:SYNCPI';
const CORE = 'syn:fred:SYNCORECPI';
const steps = (series: string, origin: string, value: (k: number) => number, drop?: number, h = 12) =>
  Array.from({ length: h }, (_, k) => k + 1)
    .filter((k) => k !== drop)
    .map((k) => `few,${series},${origin},${k},${value(k)}`);
// The hand-written file, a flat 250: CPI from its December 2019 origin, core CPI from December 2020 (whose
// 12th target lies past the data, December 2021 being released in 2022).
const PARTIAL = [
  'model,series_id,origin,step,value',
  ...steps(CPI, '2019-12', () => 250),
  ...steps(CORE, '2020-12', () => 250),
];

let results: ScoringResults;
let stdout: string;
let leaderboard: string;
/** y_o (the last input known at the origin) and y_{o+12} of a series at an origin, from the split's files. */
const known = new Map<string, { y0: number; yH: number }>();

beforeAll(async () => {
  // The run's shared tiny universe, its default split and their baselines, linked: scoring only reads them.
  const tiny = await tinyFixture();
  linkShared(work, { u: tiny.universe, s: tiny.split, 'b.parquet': tiny.baselines });
  // A full-coverage model: the random walk's paths shifted up 0.1% (every origin of every series).
  const b = await readParquetColumns(join(work, 'b.parquet'), [
    'model',
    'series_id',
    'origin',
    'step',
    'value',
  ]);
  const full = ['model,series_id,origin,step,value'];
  for (let i = 0; i < b.rows; i++) {
    if (b.columns.model[i] !== 'random_walk') continue;
    const origin = b.columns.origin[i];
    const text = origin instanceof Date ? origin.toISOString() : String(origin);
    full.push(
      `everywhere,${b.columns.series_id[i]},${text},${b.columns.step[i]},${Number(b.columns.value[i]) * 1.001}`,
    );
  }
  writeFileSync(join(work, 'full.csv'), `${full.join('\n')}\n`);
  writeFileSync(join(work, 'partial.csv'), `${PARTIAL.join('\n')}\n`);
  const r = await run(
    'score',
    '--manifest',
    's/manifest.json',
    '--forecasts',
    'partial.csv',
    '--forecasts',
    'full.csv',
    '--universe',
    'u/manifest.json',
    '--out',
    'scored',
  );
  expect(r.code, r.stderr).toBe(0);
  stdout = r.stdout;
  results = ScoringResults.parse(JSON.parse(readFileSync(join(work, 'scored', 'results.json'), 'utf8')));
  leaderboard = readFileSync(join(work, 'scored', 'leaderboard.md'), 'utf8');

  const inputs = await readParquetColumns(join(work, 's', 'inputs.parquet'), [
    'series_id',
    'origin',
    'timestamp',
    'value',
  ]);
  const targets = await readParquetColumns(join(work, 's', 'targets.parquet'), [
    'series_id',
    'origin',
    'step',
    'value',
  ]);
  const key = (s: unknown, o: unknown) => `${s}|${(o as Date).toISOString()}`;
  const last = new Map<string, { ts: number; value: number }>();
  for (let i = 0; i < inputs.rows; i++) {
    const k = key(inputs.columns.series_id[i], inputs.columns.origin[i]);
    const ts = (inputs.columns.timestamp[i] as Date).getTime();
    if (!(ts < (last.get(k)?.ts ?? Number.NEGATIVE_INFINITY)))
      last.set(k, { ts, value: Number(inputs.columns.value[i]) });
  }
  for (let i = 0; i < targets.rows; i++) {
    if (Number(targets.columns.step[i]) !== 12) continue;
    const k = key(targets.columns.series_id[i], targets.columns.origin[i]);
    known.set(k, { y0: last.get(k)!.value, yH: Number(targets.columns.value[i]) });
  }
}, 600_000);

/** A model's value in the monthly unit (the two CPI series). */
const monthly = (r: ScoringResults['values'], model: string, metric: string) => {
  const found = r.find((v) => v.model === model && v.metric === metric && v.unit.endsWith('/ M'));
  expect(found, `${model} ${metric}`).toBeDefined();
  return found!;
};

describe('asof score with a partial, label-origin forecast file', () => {
  it('prints and records the coverage of the partial model', () => {
    const taskPoints = results.comparison.task_set.points;
    expect(taskPoints).toBe(results.origins.points);
    const few = results.models.find((m) => m.model === 'few')!;
    expect(few.coverage).toMatchObject({ series: 2, origins: 2, points: 24, units: 1, full_units: 0 });
    expect(few.coverage.share).toBeCloseTo(24 / taskPoints, 15);
    expect(results.models.find((m) => m.model === 'everywhere')!.coverage.share).toBe(1);
    // The share as the leaderboard prints it (two significant digits under 1%); five models on its points:
    // the four baselines scored on every origin and itself (GARCH is scored only where it was fitted, a
    // partial model itself, docs/decisions/0059).
    const share = ((24 / taskPoints) * 100).toPrecision(2).replace('.', '\\.');
    expect(stdout).toMatch(
      new RegExp(
        `few: partial, 2 series, 2 origins, 24 points \\(${share}% of the task set\\); with the baselines on its points: position \\d of 5`,
      ),
    );
    expect(stdout).toContain(
      'rank blocks (FinVerse rank aggregation) rank every model with a path in each of their units on the paths all of them forecast',
    );
  });

  it('scores the baselines on the same points (tycheon.mae of the random walk by hand)', () => {
    // Tycheon MAE on horizon-end log returns, per series, then the mean over the unit's series. On the
    // partial model's points the monthly unit has one horizon-end return, CPI @ 2019-12 (core CPI @ 2020-12
    // has no known 12th target); on the whole task set it has CPI and core CPI @ 2019-12.
    const cpi = known.get(`${CPI}|2020-01-01T04:59:59.999Z`)!;
    const core = known.get(`${CORE}|2020-01-01T04:59:59.999Z`)!;
    const r = (x: { y0: number; yH: number }) => Math.log(x.yH / x.y0);
    const block = results.same_points.find((p) => p.model === 'few')!;
    const rwSame = monthly(block.values, 'random_walk', 'tycheon.mae');
    expect(rwSame.series).toBe(1);
    expect(rwSame.value).toBeCloseTo(Math.abs(r(cpi)), 12);
    const own = monthly(results.values, 'few', 'tycheon.mae');
    expect(own.partial).toBe(true);
    expect(own.value).toBeCloseTo(Math.abs(Math.log(250 / cpi.y0) - r(cpi)), 12);
    const rwAll = monthly(results.values, 'random_walk', 'tycheon.mae');
    expect(rwAll.series).toBe(2);
    expect(rwAll.value).toBeCloseTo((Math.abs(r(cpi)) + Math.abs(r(core))) / 2, 12);
    expect(Math.abs(rwAll.value! - rwSame.value!)).toBeGreaterThan(1e-6);
    // The verdict pools the model's origins with a known horizon end (1) against the random walk on the same.
    const pooled = results.verdicts.rows.find((v) => v.model === 'few' && v.unit === '*')!;
    expect(pooled).toMatchObject({ partial: true, n: 1 });
  });

  it('shows the full and the partial model in one leaderboard, with the comparison sets', () => {
    expect(results.ranks.overall.models.map((m) => m.model)).toContain('everywhere');
    // few has no path in most units: not in the overall block (which says so), ranked where it has a path in
    // every unit, on the paths every model there shares (issue 51 item 7).
    expect(results.ranks.overall.models.map((m) => m.model)).not.toContain('few');
    expect(results.ranks.overall.not_ranked.map((n) => n.model)).toContain('few');
    expect(results.ranks.overall.family).toBe('finverse');
    expect(leaderboard).toMatch(/\| everywhere \| \d+ \| \d+ \| \d+ \| 100% \| all blocks \|/);
    const share = ((24 / results.comparison.task_set.points) * 100).toPrecision(2).replace('.', '\\.');
    expect(leaderboard).toMatch(new RegExp(`\\| few \\| 2 \\| 2 \\| 24 \\| ${share}% \\| [^|]+ \\|`));
    expect(leaderboard).toContain(
      '- Ranks: a rank block (overall, each scope, category and frequency) ranks',
    );
    expect(leaderboard).toContain('### few');
  });

  it('refuses a half-covered origin, naming it', async () => {
    writeFileSync(
      join(work, 'half.csv'),
      `${['model,series_id,origin,step,value', ...steps(CPI, '2019-12', () => 250, 12)].join('\n')}\n`,
    );
    const r = await run('score', '--manifest', 's/manifest.json', '--forecasts', 'half.csv', '--out', 'half');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `half.csv: model few forecasts ${CPI} @ 2019-12 (2020-01-01T04:59:59.999Z) but has no row for step 12 (1 of its 12 steps missing)`,
    );
  });

  it('refuses an origin that matches nothing, naming file, row, value and the nearest origins', async () => {
    writeFileSync(
      join(work, 'june.csv'),
      `${['model,series_id,origin,step,value', ...steps(CPI, '2020-06', () => 250)].join('\n')}\n`,
    );
    const r = await run('score', '--manifest', 's/manifest.json', '--forecasts', 'june.csv', '--out', 'june');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `june.csv row 2: origin "2020-06" is not an origin of ${CPI} in the split (neither an origin's period label nor its instant); nearest origins of ${CPI}: 2019-12 (2020-01-01T04:59:59.999Z), 2020-12 (2021-01-01T04:59:59.999Z)`,
    );
  });
});
