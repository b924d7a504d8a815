import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASELINE_MODELS, baselinePath, SEASON_LENGTH } from '@asof/baselines';
import { Duck, quoteLiteral } from '@asof/duck';
import { verifyManifest } from '@asof/manifest';
import { isAsofParquetFile } from '@asof/output';
import {
  alignForecasts,
  buildEvaluationPanel,
  makePanelBaselines,
  maseOriTask,
  readForecasts,
  readSplitTables,
  scoreSplit,
  type TaskRow,
  wholeHistoryAt,
} from '@asof/scoring';
import {
  driftForecaster,
  HistoryStore,
  LookaheadError,
  runForecaster,
  runSplit,
  type StoredHistoryRow,
  writeBaselineForecasts,
} from '@asof/split';
import {
  type MiniObservation,
  type MiniSeries,
  monthEnd,
  plusDays,
  weekdayBars,
  writeMiniUniverse,
} from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselinesCommand } from './baselines-command.ts';

// The cli package folder is the working directory of these tests (outputs must lie inside it).
const cwd = join(import.meta.dirname, '..');
const root = mkdtempSync(join(cwd, '.test-baselines-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A wiggly walk, so that the whole-history drift and a tail drift differ.
const walk = (i: number, seed: number) =>
  100 + seed + 0.3 * i + 5 * Math.sin(i / 7 + seed) + 3 * Math.cos(i / 3);

const obs: MiniObservation[] = weekdayBars('b:px', '2016-01-04', '2024-12-31', (_t, i) => walk(i, 0));
// Monthly, released 15 days late; every 2020 value revised 40 days after the month (+0.5).
let j = 0;
for (let y = 2012; y <= 2024; y++) {
  for (let m = 1; m <= 12; m++) {
    const t = monthEnd(y, m);
    const v = walk(j++, 3);
    obs.push({
      series_id: 'm:cpi',
      timestamp: t,
      available_at: plusDays(t, 15),
      value: v,
    });
    if (y === 2020)
      obs.push({
        series_id: 'm:cpi',
        timestamp: t,
        available_at: plusDays(t, 40),
        value: v + 0.5,
      });
  }
}

// Twelve series (positive and not, daily and monthly, long and short), for the thread-count comparison.
const manyObs: MiniObservation[] = [];
const manySeries: MiniSeries[] = [];
for (let k = 0; k < 12; k++) {
  const id = `t:${String(k).padStart(2, '0')}`;
  const daily = k % 3 !== 2;
  manySeries.push({ series_id: id, frequency: daily ? 'BD' : 'M', eval_target: true });
  const level = k % 4 === 3 ? -20 : 50;
  if (daily) {
    const start = k % 2 === 0 ? '2018-01-01' : '2019-06-03';
    manyObs.push(...weekdayBars(id, start, '2022-12-30', (_t, i) => level + walk(i, k) * (1 + k / 10)));
  } else {
    let i = 0;
    for (let y = 2014; y <= 2022; y++) {
      for (let m = 1; m <= 12; m++) {
        const t = monthEnd(y, m);
        manyObs.push({
          series_id: id,
          timestamp: t,
          available_at: plusDays(t, 10),
          value: level + walk(i++, k),
        });
      }
    }
  }
}

let split = '';
let many = '';
beforeAll(async () => {
  await writeMiniUniverse(join(root, 'many'), {
    name: 'baselines-many',
    eval_start: '2022-10-01',
    series: manySeries,
    observations: manyObs,
  });
  many = (
    await runSplit({
      manifestPath: join(root, 'many', 'manifest.json'),
      outDir: join(root, 'many-split'),
      embargo: '30',
      origins: 'all',
      layout: 'compact',
    })
  ).manifestPath;
  await writeMiniUniverse(join(root, 'u'), {
    name: 'baselines',
    eval_start: '2020-01-01',
    series: [
      { series_id: 'b:px', frequency: 'BD', eval_target: true },
      { series_id: 'm:cpi', frequency: 'M', eval_target: true },
    ],
    observations: obs,
  });
  split = (
    await runSplit({ manifestPath: join(root, 'u', 'manifest.json'), outDir: join(root, 's'), embargo: '30' })
  ).manifestPath;
}, 180_000);

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const tasksOf = (frequency: Map<string, string>): TaskRow[] =>
  [...frequency].map(([series_id, f]) =>
    maseOriTask(series_id, { frequency: f, detail_category: `Test ${f}` }),
  );

describe('asof baselines', () => {
  it('writes, through historyAt, exactly the scorer’s own baselines; asof score accepts the file', async () => {
    const out = join(root, 'baselines.parquet');
    let text = '';
    const code = await baselinesCommand(['--manifest', split, '--out', out], {
      out: (t) => (text += t),
      err: () => {},
      cwd,
    });
    expect(code).toBe(0);
    expect(text).toMatch(/wrote [\d,]+ forecasts .* for \d+ origins of 2 series/);
    const manifest = await verifyManifest(split);
    const data = await readSplitTables(manifest, join(root, 's'));
    const panel = buildEvaluationPanel(data.origins, data.targets);
    const file = alignForecasts(panel, await readForecasts(out));
    expect(file.map((m) => m.model).sort()).toEqual([
      'arima',
      'drift',
      'garch',
      'random_walk',
      'seasonal_naive',
    ]);
    const frequency = new Map(panel.seriesIds.map((s) => [s, s === 'b:px' ? 'BD' : 'M']));
    const own = makePanelBaselines(
      panel,
      panel.seriesIds.map((s) => frequency.get(s)),
      BASELINE_MODELS,
    );
    expect(panel.horizon.length).toBeGreaterThan(6);
    for (const m of own) {
      const written = file.find((f) => f.model === m.model)!;
      expect(written.covered ?? null).toBeNull();
      expect(Array.from(written.point)).toEqual(Array.from(m.point));
      // ARIMA's and GARCH's quantiles too (the point baselines have none in the file).
      expect(written.quantileLevels).toEqual(m.quantileLevels);
      expect(written.quantiles && Array.from(written.quantiles)).toEqual(
        m.quantiles && Array.from(m.quantiles),
      );
    }
    expect(own[3].quantileLevels).toHaveLength(19);
    // The drift is the whole-history one: a tail-only drift (the inputs window) differs somewhere.
    let differs = 0;
    for (let o = 0; o < panel.horizon.length; o++) {
      const tail = new Float64Array(panel.horizon[o]);
      const m = SEASON_LENGTH[frequency.get(panel.seriesIds[panel.originSeries[o]])!];
      baselinePath('drift', panel.lastValue[o], panel.historyTail[o], panel.horizon[o], m, tail, 0);
      if (tail[0] !== own[1].point[panel.targetOffset[o]]) differs++;
      // The whole history at an origin reaches back to the series' start (2016 / 2012): y_1 is further
      // back on the grid than the tail's first value.
      expect(panel.historyFirstBack[o]).toBeGreaterThan(panel.historyTailBack[o]![0]);
    }
    expect(differs).toBeGreaterThan(0);
    const results = await scoreSplit(split, [out], { tasks: tasksOf(frequency) });
    expect(results.models.map((m) => m.model)).toEqual([
      'random_walk',
      'drift',
      'seasonal_naive',
      'arima',
      'garch',
    ]);
    expect(results.warnings).toContainEqual({
      code: 'SUBMITTED_BASELINES_MATCH',
      message: expect.any(String),
      count: 5,
    });
  }, 60_000);

  it('stores origin as the split does (TIMESTAMP WITH TIME ZONE, µs); a copy with text origins reads the same', async () => {
    const out = join(root, 'typed-origins.parquet');
    expect(
      await baselinesCommand(['--manifest', split, '--out', out], { out: () => {}, err: () => {}, cwd }),
    ).toBe(0);
    const origins = readdirSync(join(root, 's'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /(^|\/)origins[^/]*\.parquet$/.test(f))
      .map((f) => join(root, 's', f));
    expect(origins.length).toBeGreaterThan(0);
    const text = join(root, 'text-origins.parquet');
    const duck = await Duck.open({ threads: 1 });
    try {
      const originType = (file: string) =>
        duck.all(
          `SELECT type, logical_type, converted_type FROM parquet_schema(${quoteLiteral(file)}) WHERE name = 'origin'`,
        );
      const splitType = await originType(origins[0]);
      expect(splitType).toEqual([
        expect.objectContaining({ type: 'INT64', converted_type: 'TIMESTAMP_MICROS' }),
      ]);
      expect(await originType(out)).toEqual(splitType);
      // A file written before issue 51: origin as ISO text with microseconds.
      await duck.run(
        `COPY (SELECT * REPLACE (strftime(origin, '%Y-%m-%dT%H:%M:%S.%fZ') AS origin) FROM read_parquet(${quoteLiteral(out)}))
         TO ${quoteLiteral(text)} (FORMAT parquet)`,
      );
      expect(await originType(text)).toEqual([expect.objectContaining({ type: 'BYTE_ARRAY' })]);
    } finally {
      duck.close();
    }
    const manifest = await verifyManifest(split);
    const data = await readSplitTables(manifest, join(root, 's'));
    const panel = buildEvaluationPanel(data.origins, data.targets);
    const typed = alignForecasts(panel, await readForecasts(out));
    const old = alignForecasts(panel, await readForecasts(text));
    expect(old.map((m) => m.model)).toEqual(typed.map((m) => m.model));
    for (const [i, m] of typed.entries()) {
      expect(m.point.length).toBeGreaterThan(100);
      expect(Array.from(old[i].point)).toEqual(Array.from(m.point));
    }
  }, 60_000);

  it('--refit-every K fits ARIMA and GARCH as the scorer does with the same K, and only then', async () => {
    const out = join(root, 'baselines-k1.parquet');
    let hint = '';
    const code = await baselinesCommand(['--manifest', split, '--out', out, '--refit-every', '1'], {
      out: () => {},
      err: (t) => (hint += t),
      cwd,
    });
    expect(code).toBe(0);
    expect(hint).toMatch(/next: asof score .* --refit-every 1 /);
    const frequency = new Map([
      ['b:px', 'BD'],
      ['m:cpi', 'M'],
    ]);
    const same = await scoreSplit(split, [out], { tasks: tasksOf(frequency), refitEvery: 1 });
    expect(same.warnings).toContainEqual(
      expect.objectContaining({ code: 'SUBMITTED_BASELINES_MATCH', count: 5 }),
    );
    await expect(scoreSplit(split, [out], { tasks: tasksOf(frequency) })).rejects.toThrow(
      /FORECAST_BASELINE_MISMATCH|model 'arima' at .*give asof baselines and asof score the same --refit-every/,
    );
    await expect(
      baselinesCommand(['--manifest', split, '--out', out, '--refit-every', '0'], {
        out: () => {},
        err: () => {},
        cwd,
      }),
    ).rejects.toThrow(/--refit-every 0: expected a whole number ≥ 1/);
  }, 60_000);

  it('writes rows in grain order, the same bytes under a tight --memory-limit and in blocks of one series', async () => {
    const io = { out: () => {}, err: () => {}, cwd };
    const wide = join(root, 'order-default.parquet');
    expect(await baselinesCommand(['--manifest', split, '--out', wide], io)).toBe(0);
    const tight = join(root, 'order-tight.parquet');
    await writeBaselineForecasts(split, tight, {}, { memoryLimit: '96MB', blockRows: 1 });
    expect(sha256(tight)).toBe(sha256(wide));
    const duck = await Duck.open({ threads: 1 });
    try {
      // The file's row order (a one-thread scan keeps it) is the sort on the text grain.
      const [order] = await duck.all<{ rows: bigint; out_of_order: bigint; models: bigint }>(
        `SELECT count(*) AS rows, count(*) FILTER (WHERE rn <> srn) AS out_of_order, count(DISTINCT model) AS models
         FROM (SELECT model, row_number() OVER () AS rn,
                      row_number() OVER (ORDER BY model, series_id, origin, step) AS srn
               FROM read_parquet(${quoteLiteral(wide)}))`,
      );
      expect(Number(order.rows)).toBeGreaterThan(1000);
      expect(Number(order.models)).toBe(5);
      expect(Number(order.out_of_order)).toBe(0);
    } finally {
      duck.close();
    }
    await expect(
      baselinesCommand(['--manifest', split, '--out', tight, '--memory-limit', 'lots'], io),
    ).rejects.toThrow(
      /--memory-limit lots: "lots" is not a size DuckDB understands; expected a size from 64MB/,
    );
    await expect(
      baselinesCommand(['--manifest', split, '--out', tight, '--memory-limit', '1MB'], io),
    ).rejects.toThrow(/--memory-limit 1MB: 1MB is below asof's minimum of 64MB/);
    expect(await baselinesCommand(['--manifest', split, '--out', tight, '--memory-limit', '10%'], io)).toBe(
      0,
    );
    expect(sha256(tight)).toBe(sha256(wide));
  }, 120_000);

  it('--threads N writes the same bytes as --threads 1, blocks of one series included', async () => {
    const io = { out: () => {}, err: () => {}, cwd };
    const one = join(root, 'threads-1.parquet');
    let json = '';
    const args = ['--manifest', many, '--out', one, '--threads', '1', '--json'];
    expect(await baselinesCommand(args, { ...io, out: (t) => (json += t) })).toBe(0);
    const r = JSON.parse(json);
    expect(r.series).toBe(12);
    expect(r.origins).toBeGreaterThan(100);
    const two = join(root, 'threads-2.parquet');
    json = '';
    args.splice(3, 3, two, '--threads', '2');
    expect(await baselinesCommand(args, { ...io, out: (t) => (json += t) })).toBe(0);
    expect(sha256(two)).toBe(sha256(one));
    // The look-ahead guard checked the same requests and rows, whichever thread served them.
    expect(JSON.parse(json).guard).toEqual(r.guard);
    const three = join(root, 'threads-3.parquet');
    await writeBaselineForecasts(many, three, {}, { threads: 3, blockRows: 1 });
    expect(sha256(three)).toBe(sha256(one));
    await expect(baselinesCommand(['--manifest', many, '--out', two, '--threads', '0'], io)).rejects.toThrow(
      /--threads 0: expected a whole number from 1 to 256/,
    );
  }, 180_000);

  it('aborts on a forecaster that reads past its origin, writing nothing', async () => {
    const out = join(root, 'cheat.parquet');
    await expect(
      writeBaselineForecasts(split, out, {
        drift: (task, history) => {
          history.historyAt(task.series_id, history.origin + 1);
          return [];
        },
      }),
    ).rejects.toThrow(LookaheadError);
    // A path forecaster (ARIMA's slot) that reads past its origin aborts the run the same way.
    await expect(
      writeBaselineForecasts(split, out, {
        arima: (task, history) => {
          history.historyAt(task.series_id, history.origin + 1);
          return null;
        },
      }),
    ).rejects.toThrow(LookaheadError);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a split with one changed byte before writing anything', async () => {
    const dir = join(root, 's');
    const origins = join(dir, 'origins.parquet');
    const bytes = readFileSync(origins);
    const out = join(root, 'tampered.parquet');
    try {
      const changed = Buffer.from(bytes);
      changed[changed.length >> 1] ^= 1;
      writeFileSync(origins, changed);
      await expect(
        baselinesCommand(['--manifest', split, '--out', out], { out: () => {}, err: () => {}, cwd }),
      ).rejects.toThrow(/origins\.parquet/);
      expect(existsSync(out)).toBe(false);
    } finally {
      writeFileSync(origins, bytes);
    }
  });

  it('writes anywhere asof may write, never over a file it did not write or a file the split lists', async () => {
    const io = { out: () => {}, err: () => {}, cwd };
    // An absolute path outside the working directory (a data disk) is fine.
    const elsewhere = mkdtempSync(join(tmpdir(), 'asof-baselines-abs-'));
    try {
      const abs = join(elsewhere, 'b.parquet');
      expect(await baselinesCommand(['--manifest', split, '--out', abs], io)).toBe(0);
      expect(isAsofParquetFile(abs)).toBe(true);
      // Written by asof: replaced by the next run.
      expect(await baselinesCommand(['--manifest', split, '--out', abs], io)).toBe(0);
      // A file asof did not write is left byte-identical.
      const mine = join(elsewhere, 'mine.parquet');
      writeFileSync(mine, 'my own data');
      await expect(baselinesCommand(['--manifest', split, '--out', mine], io)).rejects.toMatchObject({
        code: 'OUTPUT_NOT_ASOF',
        exitCode: 2,
      });
      expect(readFileSync(mine, 'utf8')).toBe('my own data');
      expect(readdirSync(elsewhere).sort()).toEqual(['b.parquet', 'mine.parquet']);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    // The split's own input file, and any path inside the split's folder.
    const inputs = join(root, 's', 'inputs.parquet');
    const before = readFileSync(inputs);
    await expect(baselinesCommand(['--manifest', split, '--out', inputs], io)).rejects.toMatchObject({
      exitCode: 2,
    });
    expect(readFileSync(inputs).equals(before)).toBe(true);
    await expect(baselinesCommand(['--manifest', split, '--out', 'x.csv'], io)).rejects.toThrow(/\.parquet/);
  }, 60_000);
});

describe('drift on a split with model-cutoff windows, whose served history has a hole', () => {
  it('asof baselines and the scorer take the slope from the first served value over grid steps', async () => {
    // The README's windows: origins in T1 and T2, the one between straddles the cutoff and is dropped, so
    // nothing of late 2020 is served for m:cpi.
    const dir = join(root, 's-windows');
    const windows = (
      await runSplit({
        manifestPath: join(root, 'u', 'manifest.json'),
        outDir: dir,
        modelCutoff: '2021-12-31',
        runDate: '2025-12-31',
      })
    ).manifestPath;
    const out = join(root, 'baselines-windows.parquet');
    // ARIMA and GARCH are not what this checks: no path (a point mass) keeps the run short.
    await writeBaselineForecasts(windows, out, { arima: () => null, garch: () => null });
    const data = await readSplitTables(await verifyManifest(windows), dir);
    const panel = buildEvaluationPanel(data.origins, data.targets);
    const frequency = panel.seriesIds.map((s) => (s === 'b:px' ? 'BD' : 'M'));
    const own = makePanelBaselines(panel, frequency, ['drift'])[0];
    const file = alignForecasts(panel, await readForecasts(out)).find((m) => m.model === 'drift')!;
    expect(Array.from(file.point)).toEqual(Array.from(own.point));
    // By hand, m:cpi: every month 2012-01 … 2024-12 is on its grid (step 1 = 2012-01), y_1 = walk(0, 3)
    // at step 1 at every origin, and y_o the last public month, u steps before the origin's: the slope is
    // ln(y_o/y_1) over (origin_index − u − 1) months.
    const s = panel.seriesIndex.get('m:cpi')!;
    const last = panel.seriesOriginStart[s + 1] - 1;
    expect(last).toBeGreaterThan(panel.seriesOriginStart[s]);
    for (let o = panel.seriesOriginStart[s]; o <= last; o++) {
      const back = panel.historyTailBack[o]!;
      const u = back[back.length - 1];
      const yo = panel.lastValue[o];
      expect(panel.historyFirst[o]).toBe(walk(0, 3));
      expect(panel.historyFirstBack[o]).toBe(panel.originIndex[o] - 1);
      const g = Math.log(yo / walk(0, 3)) / (panel.originIndex[o] - u - 1);
      for (let k = 1; k <= panel.horizon[o]; k++)
        expect(own.point[panel.targetOffset[o] + k - 1] / (yo * Math.exp((k + u) * g)) - 1).toBeCloseTo(
          0,
          12,
        );
    }
    // The hole: at the last origin fewer months are served than the grid distance spans.
    const duck = await Duck.open({ threads: 1 });
    try {
      const file = (f: string) => quoteLiteral(join(dir, f));
      const { n } = await duck.one<{ n: bigint }>(
        `SELECT count(DISTINCT "timestamp") AS n FROM (
           SELECT "timestamp" FROM read_parquet(${file('train/observations.parquet')}) WHERE series_id = 'm:cpi'
           UNION ALL
           SELECT "timestamp" FROM read_parquet(${file('inputs.parquet')})
           WHERE series_id = 'm:cpi' AND origin <= $origin::TIMESTAMPTZ
         )`,
        { origin: panel.originIso[last] },
      );
      const span = panel.originIndex[last] - panel.historyTailBack[last]!.at(-1)! - 1;
      expect(Number(n) - 1).toBeLessThan(span);
    } finally {
      duck.close();
    }
  }, 60_000);
});

describe('drift through historyAt = the scorer’s drift from wholeHistoryAt', () => {
  it('agrees on random histories with late releases, revisions, withdrawals, a hole and unplaced rows', () => {
    let lagged = 0;
    let holed = 0;
    let unplaced = 0;
    let seed = 12345;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 20; trial++) {
      const stored: StoredHistoryRow[] = [];
      for (let t = 1; t <= 60; t++) {
        // Steps 20…29 are served to no one (a split's stretch between its windows).
        if (t >= 20 && t < 30) continue;
        const av = t + Math.floor(rand() * 5);
        stored.push({ timestamp: t, available_at: av, value: 100 + 10 * rand() });
        if (rand() < 0.15) stored.push({ timestamp: t, available_at: av + 3, value: null });
        if (rand() < 0.15) stored.push({ timestamp: t, available_at: av + 6, value: 90 + 10 * rand() });
      }
      // The grid step is the timestamp; some early steps are not given (a training snapshot with a hole is
      // placed only at its ends), so y_1 is the first public row whose step is known, on both sides. The
      // last public value's step is always given (it is an input, with its step_index).
      const known = new Set<number>();
      for (let t = 1; t <= 70; t++) if (t >= 10 || rand() < 0.6) known.add(t);
      const store = new HistoryStore(
        new Map([['x', stored]]),
        new Map([['x', [...known].map((t) => ({ timestamp: t, step: t }))]]),
      );
      const cols = {
        ts: stored.map((r) => r.timestamp),
        av: stored.map((r) => r.available_at),
        value: stored.map((r) => r.value ?? Number.NaN),
      };
      const origins = [25, 40, 61, 70];
      const whole = wholeHistoryAt(
        cols,
        (ts) => (known.has(ts) ? ts : Number.NaN),
        origins.map((origin) => ({ origin, tailStart: origin, tailStartStep: Number.NaN, returns: 0 })),
      );
      origins.forEach((o, k) => {
        const task = { series_id: 'x', origin: o, horizon_steps: 4, origin_index: o };
        const viaGuard = runForecaster(store, [task], driftForecaster).map((r) => r.value);
        const seen = store.historyAt('x', o);
        if (seen.length === 0) return;
        if (!known.has(seen[0].timestamp)) unplaced++;
        // The lag u: grid steps from the last public value's step to the origin's (the split's inputs give
        // the scorer the same as history_tail_back).
        const last = seen[seen.length - 1];
        const u = o - last.timestamp;
        if (u > 0) lagged++;
        const span = last.timestamp - whole[k].firstStep;
        if (Number.isFinite(span) && span !== seen.length - 1) holed++;
        const mine = new Float64Array(4);
        const firstBack = o - whole[k].firstStep;
        baselinePath('drift', last.value, [last.value], 4, 1, mine, 0, whole[k].first, firstBack, [u]);
        expect(viaGuard).toEqual(Array.from(mine));
      });
    }
    // The lag, the hole (grid distance ≠ rows − 1) and unplaced first rows are all exercised.
    expect(lagged).toBeGreaterThan(0);
    expect(holed).toBeGreaterThan(0);
    expect(unplaced).toBeGreaterThan(0);
  });
});
