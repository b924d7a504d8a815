import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_MODELS } from '@asof/baselines';
import { buildUniverse, PipelineConfig } from '@asof/build';
import { Duck, quoteLiteral } from '@asof/duck';
import { finalizeManifest, hashFile, verifyManifest, writeManifest } from '@asof/manifest';
import type { Manifest } from '@asof/schema';
import {
  buildEvaluationPanel,
  makePanelBaselines,
  maseOriTask,
  readSplitTables,
  scoreSplit,
} from '@asof/scoring';
import { runSplit, writeBaselineForecasts } from '@asof/split';
import { type MiniObservation, writeMiniUniverse } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, SHARED, scratchOut } from './helpers.ts';

// Issue 16, Build 1: seasonal naive counts on the series' grid from the origin's own step, whatever the
// publication lag, in `asof baselines` (through historyAt) and in the scorer's own baselines alike. A
// monthly or quarterly value is released after its period, so at a period-end origin the origin's own
// period is not public: counting back from the last published row shifted every such series one period.

const FRED = join(SHARED, 'fixtures/real/fred');
const dirs: { abs: string }[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d.abs, { recursive: true, force: true });
});
const scratch = (name: string) => {
  const d = scratchOut(name);
  dirs.push(d);
  return d;
};

type Model = 'random_walk' | 'drift' | 'seasonal_naive';

/** One origin's path of one model in a forecasts file written by `asof baselines`. */
async function filePath(file: string, series: string, origin: string, model: Model): Promise<number[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    const rows = await duck.all<{ value: number }>(
      `SELECT value FROM read_parquet(${quoteLiteral(file)})
       WHERE model = $m AND series_id = $s AND origin::TIMESTAMPTZ = $o::TIMESTAMPTZ ORDER BY step`,
      { m: model, s: series, o: origin },
    );
    return rows.map((r) => r.value);
  } finally {
    duck.close();
  }
}

/** Every forecast row of a file, in order. */
async function allRows(file: string): Promise<unknown[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return await duck.all(
      `SELECT model, series_id, origin, step, value FROM read_parquet(${quoteLiteral(file)}) ORDER BY ALL`,
    );
  } finally {
    duck.close();
  }
}

/** The scorer's own baseline path for one origin (readSplitTables → panel → makePanelBaselines). */
async function scorerPath(
  splitDir: string,
  frequency: Record<string, string>,
  series: string,
  origin: string,
  model: Model,
): Promise<number[]> {
  const data = await readSplitTables(await verifyManifest(join(splitDir, 'manifest.json')), splitDir);
  const panel = buildEvaluationPanel(data.origins, data.targets);
  const own = makePanelBaselines(
    panel,
    panel.seriesIds.map((s) => frequency[s]),
  ).find((m) => m.model === model)!;
  const o = panel.originKey.get(`${panel.seriesIndex.get(series)}|${Date.parse(origin)}`);
  expect(o, `${series} @ ${origin} is an origin`).toBeDefined();
  const from = panel.targetOffset[o!];
  return Array.from(own.point.subarray(from, from + panel.horizon[o!]));
}

describe('hand-made lagged series, both split layouts', () => {
  const universe = scratch('sn-lag-universe');
  const perOrigin = scratch('sn-lag-per-origin');
  const compact = scratch('sn-lag-compact');
  const out = scratch('sn-lag-out');
  const FREQ = { 'm:lag': 'M', 'q:lag': 'Q', 'q:young': 'Q' };
  const monthEnd = (y: number, m: number) => new Date(Date.UTC(y, m, 0, 23, 59, 59)).toISOString();
  const plusDays = (iso: string, d: number) => new Date(Date.parse(iso) + d * 86_400_000).toISOString();
  // Values name their period: 201901 is January 2019, 20193 is 2019Q3.
  const obs: MiniObservation[] = [];
  for (let y = 2016; y <= 2021; y++) {
    for (let m = 1; m <= 12; m++) {
      // Monthly, a one-month lag: each month released on the 15th of the next.
      const t = monthEnd(y, m);
      obs.push({ series_id: 'm:lag', timestamp: t, available_at: plusDays(t, 15), value: y * 100 + m });
    }
    for (let q = 1; q <= 4; q++) {
      // Quarterly, released 40 days after the quarter end.
      const t = monthEnd(y, 3 * q);
      obs.push({ series_id: 'q:lag', timestamp: t, available_at: plusDays(t, 40), value: y * 10 + q });
      if (y >= 2019)
        obs.push({ series_id: 'q:young', timestamp: t, available_at: plusDays(t, 40), value: y * 10 + q });
    }
  }
  // March 2019 withdrawn at the end of June 2019: not public at the December 2019 origin.
  obs.push({
    series_id: 'm:lag',
    timestamp: monthEnd(2019, 3),
    available_at: monthEnd(2019, 6),
    value: null,
  });
  const ORIGIN = monthEnd(2019, 12);
  const files = { per: join(out.abs, 'per.parquet'), compact: join(out.abs, 'compact.parquet') };

  beforeAll(async () => {
    await writeMiniUniverse(universe.abs, {
      name: 'seasonal-naive-lag',
      eval_start: '2019-12-01',
      series: Object.entries(FREQ).map(([series_id, f]) => ({
        series_id,
        frequency: f as 'M' | 'Q',
        eval_target: true,
      })),
      observations: obs,
    });
    const options = {
      manifestPath: join(universe.abs, 'manifest.json'),
      origins: 'all' as const,
      threads: 1,
    };
    await runSplit({ ...options, outDir: perOrigin.abs });
    await runSplit({ ...options, outDir: compact.abs, layout: 'compact' });
    mkdirSync(out.abs, { recursive: true });
    await writeBaselineForecasts(join(perOrigin.abs, 'manifest.json'), files.per);
    await writeBaselineForecasts(join(compact.abs, 'manifest.json'), files.compact);
  }, 300_000);

  // At the December 2019 origin: November 2019 is the last public month (released 15 December), 2019Q3 the
  // last public quarter (released 9 November); the input windows are the last 12 / 4 public steps.
  const EXPECTED: Record<string, number[]> = {
    'm:lag': [
      201901, 201902,
      // March 2019 is withdrawn and March 2018 is outside the 12-month inputs: the random walk.
      201911, 201904, 201905, 201906, 201907, 201908, 201909, 201910, 201911,
      // December 2019 (the origin's own step) is not public yet: December 2018.
      201812,
    ],
    'q:lag': [20191, 20192, 20193, 20184],
    // No fourth quarter public before 2019Q4: 2020Q4 is the random walk.
    'q:young': [20191, 20192, 20193, 20193],
  };

  it('asof baselines gives the hand-computed paths at the December 2019 origin, from either layout', async () => {
    for (const [series, path] of Object.entries(EXPECTED)) {
      expect(await filePath(files.per, series, ORIGIN, 'seasonal_naive'), series).toEqual(path);
      expect(await filePath(files.compact, series, ORIGIN, 'seasonal_naive'), series).toEqual(path);
    }
    expect(await filePath(files.per, 'm:lag', ORIGIN, 'random_walk')).toEqual(Array(12).fill(201911));
    expect(await allRows(files.compact)).toEqual(await allRows(files.per));
  });

  it('the scorer’s own baselines give the same paths on both layouts', async () => {
    for (const dir of [perOrigin.abs, compact.abs]) {
      for (const [series, path] of Object.entries(EXPECTED)) {
        expect(await scorerPath(dir, FREQ, series, ORIGIN, 'seasonal_naive'), series).toEqual(path);
      }
    }
  });

  it('asof score accepts the baselines file as its own baselines on both layouts (every origin)', async () => {
    const tasks = Object.entries(FREQ).map(([s, f]) => maseOriTask(s, { frequency: f }));
    for (const dir of [perOrigin.abs, compact.abs]) {
      const results = await scoreSplit(join(dir, 'manifest.json'), [files.per], {
        tasks,
        allowOverlap: true,
      });
      expect(results.warnings).toContainEqual(
        // Every model `asof baselines` writes (the point baselines and the fitted ARIMA/GARCH).
        expect.objectContaining({ code: 'SUBMITTED_BASELINES_MATCH', count: BASELINE_MODELS.length }),
      );
    }
  });
  it('a split whose inputs carry no step_index (an older asof split) is refused, not silently shifted', async () => {
    // The per-origin split with its inputs rewritten without step_index, the manifest re-hashed.
    const old = scratch('sn-lag-old-split');
    cpSync(perOrigin.abs, old.abs, { recursive: true });
    const inputs = join(old.abs, 'inputs.parquet');
    const duck = await Duck.open({ threads: 1 });
    try {
      await duck.writeParquet(
        `SELECT * EXCLUDE (step_index) FROM read_parquet(${quoteLiteral(join(perOrigin.abs, 'inputs.parquet'))})
         ORDER BY series_id, origin, "timestamp"`,
        inputs,
      );
    } finally {
      duck.close();
    }
    const manifestPath = join(old.abs, 'manifest.json');
    const { dataset_id: _, ...body } = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const hashed = await hashFile(inputs);
    body.outputs = body.outputs.map((o) => (o.path === 'inputs.parquet' ? { ...o, ...hashed } : o));
    const manifest = finalizeManifest(body);
    writeManifest(manifestPath, manifest);
    await expect(writeBaselineForecasts(manifestPath, join(out.abs, 'old.parquet'))).rejects.toMatchObject({
      code: 'BASELINES_SPLIT_OUTDATED',
      exitCode: 2,
    });
    expect(existsSync(join(out.abs, 'old.parquet'))).toBe(false);
    // The scorer cannot place inputs that end before their origin (every origin here): refused.
    await expect(readSplitTables(manifest, old.abs)).rejects.toMatchObject({
      code: 'SPLIT_NO_STEP_INDEX',
      exitCode: 2,
    });
  });
});

describe('the default universe’s SYNRSAFS at the December 2019 origin', () => {
  // The default's synthetic ALFRED generator with its seed and dates (pipelines/default.json): the first 15
  // templates, SYNRSAFS the 15th, give the same series as the default build (each series is seeded by its
  // position), without the default's other sources.
  const universe = scratch('sn-synrsafs-universe');
  const split = scratch('sn-synrsafs-split');
  const out = scratch('sn-synrsafs-out');
  const ID = 'syn:fred:SYNRSAFS';
  // Period ends are 23:59:59.999999 New York: December 2019 ends at 2020-01-01T04:59:59.999999Z.
  const ORIGIN = '2020-01-01T04:59:59.999999Z';
  const file = join(out.abs, 'baselines.parquet');

  beforeAll(async () => {
    const config = PipelineConfig.parse({
      name: 'seasonal-naive-synrsafs',
      eval_start: '2020-01-01',
      sources: { fred: { synthetic: { seed: 20260101, start: '2005-01-01', end: '2025-12-31', count: 15 } } },
    });
    await buildUniverse({ config, outDir: universe.abs, cwd: REPO });
    await runSplit({ manifestPath: join(universe.abs, 'manifest.json'), outDir: split.abs });
    mkdirSync(out.abs, { recursive: true });
    await writeBaselineForecasts(join(split.abs, 'manifest.json'), file);
  }, 300_000);

  // The vintage current at the origin of each month (`asof show syn:fred:SYNRSAFS --data out/default
  // --as-of 2020-01-01T04:59:59.999999Z`): November 2019 was released on 2019-12-16, December 2019 is
  // released on 2020-01-16. January 2019 as known then is its 2019-07-15 revision, 489963 (first printed
  // 491335); December 2018 is 492192 — what the forecast was before the fix.
  const EXPECTED = [
    489963, // Jan 2020 ← Jan 2019
    488968, // Feb 2019
    494802, // Mar 2019
    502773, // Apr 2019
    507819, // May 2019
    509889, // Jun 2019
    500481, // Jul 2019
    511201, // Aug 2019
    505519, // Sep 2019
    509229, // Oct 2019
    504644, // Nov 2019
    492192, // Dec 2020 ← Dec 2019 not public yet ← Dec 2018
  ];

  it('forecasts January 2020 with January 2019, in asof baselines and in the scorer', async () => {
    const mine = await filePath(file, ID, ORIGIN, 'seasonal_naive');
    expect(mine[0]).toBe(489963);
    expect(mine).toEqual(EXPECTED);
    expect(await scorerPath(split.abs, { [ID]: 'M' }, ID, ORIGIN, 'seasonal_naive')).toEqual(EXPECTED);
    // The random walk: November 2019, the last value public at the origin.
    expect(await filePath(file, ID, ORIGIN, 'random_walk')).toEqual(Array(12).fill(504644));
  });
});

describe.skipIf(!existsSync(FRED))('real ALFRED GDP (needs ../shared/fixtures/real/fred)', () => {
  const universe = scratch('sn-gdp-universe');
  const split = scratch('sn-gdp-split');
  const out = scratch('sn-gdp-out');
  const ORIGIN = '2020-01-01T04:59:59.999999Z'; // 2019Q4's period end (New York)
  const file = join(out.abs, 'baselines.parquet');

  beforeAll(async () => {
    const config = PipelineConfig.parse({
      name: 'seasonal-naive-gdp',
      eval_start: '2020-01-01',
      sources: { fred: { raw_dir: FRED } },
    });
    await buildUniverse({ config, outDir: universe.abs, cwd: REPO });
    await runSplit({ manifestPath: join(universe.abs, 'manifest.json'), outDir: split.abs });
    mkdirSync(out.abs, { recursive: true });
    await writeBaselineForecasts(join(split.abs, 'manifest.json'), file);
  }, 300_000);

  it('forecasts 2020 from the vintage known at the 2019Q4 origin (2019-12-20), 2019Q4 itself not yet out', async () => {
    // fred_api_series_observations_GDP_all_vintages.json, rows with realtime_start <= 2019-12-31 <=
    // realtime_end: 2018Q4 20897.804, 2019Q1 21098.827 (vintage 2019-07-26), 2019Q2 21340.267 (2019-09-26),
    // 2019Q3 21542.54 (2019-12-20, third estimate). 2019Q4's advance estimate came on 2020-01-30.
    const expected = [21098.827, 21340.267, 21542.54, 20897.804];
    expect(await filePath(file, 'fred:GDP', ORIGIN, 'seasonal_naive')).toEqual(expected);
    expect(await scorerPath(split.abs, { 'fred:GDP': 'Q' }, 'fred:GDP', ORIGIN, 'seasonal_naive')).toEqual(
      expected,
    );
    expect(await filePath(file, 'fred:GDP', ORIGIN, 'random_walk')).toEqual(Array(4).fill(21542.54));
    // Drift over the 291 quarters public then (1947Q1 243.164 … 2019Q3 21542.54; the 1946 quarters were
    // withdrawn in 1999), in log levels, 2020Q1 being k + 1 steps after 2019Q3.
    const g = Math.log(21542.54 / 243.164) / 290;
    const drift = await filePath(file, 'fred:GDP', ORIGIN, 'drift');
    expect(drift).toHaveLength(4);
    for (let k = 1; k <= 4; k++) expect(drift[k - 1]).toBeCloseTo(21542.54 * Math.exp((k + 1) * g), 6);
    expect(await scorerPath(split.abs, { 'fred:GDP': 'Q' }, 'fred:GDP', ORIGIN, 'drift')).toEqual(drift);
  });
});
