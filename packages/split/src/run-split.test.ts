import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoToMicros, labelWindow, microsToIso } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { verifyManifest } from '@asof/manifest';
import { type MiniObservation, monthEnd, plusDays, weekdayBars, writeMiniUniverse } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from './history-store.ts';
import { runSplit, type SplitOptions } from './run-split.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-split-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// m:cpi — monthly 2017-01..2023-12, first released 15 days after month end; 2018-06 revised in 2021 to 999;
// every value of 2020 revised 40 days after month end (+0.5).
// b:px — weekday bars 2018-10-01..2021-06-30, available at the bar (the close).
// q:gdp — quarterly 2016Q1..2023Q4, released 30 days after quarter end.
const obs: MiniObservation[] = [];
for (let y = 2017; y <= 2023; y++) {
  for (let m = 1; m <= 12; m++) {
    const t = monthEnd(y, m);
    obs.push({ series_id: 'm:cpi', timestamp: t, available_at: plusDays(t, 15), value: y * 100 + m });
    if (y === 2020)
      obs.push({ series_id: 'm:cpi', timestamp: t, available_at: plusDays(t, 40), value: y * 100 + m + 0.5 });
  }
}
obs.push({
  series_id: 'm:cpi',
  timestamp: monthEnd(2018, 6),
  available_at: '2021-03-01T13:30:00Z',
  value: 999,
});
obs.push(...weekdayBars('b:px', '2018-10-01', '2021-06-30', (t) => isoToMicros(t) / 1e12));
for (let y = 2016; y <= 2023; y++) {
  for (const m of [3, 6, 9, 12]) {
    const t = monthEnd(y, m);
    obs.push({ series_id: 'q:gdp', timestamp: t, available_at: plusDays(t, 30), value: y + m / 100 });
  }
}

let manifestPath = '';
beforeAll(async () => {
  await writeMiniUniverse(join(root, 'u'), {
    name: 'hand',
    eval_start: '2020-01-01',
    series: [
      { series_id: 'm:cpi', frequency: 'M', eval_target: true },
      { series_id: 'b:px', frequency: 'BD', eval_target: true },
      { series_id: 'q:gdp', frequency: 'Q', eval_target: true },
    ],
    observations: obs,
  });
  manifestPath = join(root, 'u', 'manifest.json');
}, 60_000);

let n = 0;
async function split(options: Omit<SplitOptions, 'manifestPath' | 'outDir'>) {
  const outDir = join(root, `s${n++}`);
  const result = await runSplit({ manifestPath, outDir, ...options });
  return { outDir, result };
}

/** Runs `SELECT <select> FROM f <rest>` where f is the Parquet file. */
async function rows<T = Record<string, unknown>>(file: string, select: string, rest = ''): Promise<T[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return (await duck.all(`SELECT ${select} FROM read_parquet(${quoteLiteral(file)}) ${rest}`)) as T[];
  } finally {
    duck.close();
  }
}

const us = 'epoch_us';

describe('runSplit on hand-made data', { timeout: 60_000 }, () => {
  it('trains only on what was public before eval_start − embargo', async () => {
    const { outDir, result } = await split({});
    const train = await rows<{ series_id: string; ts: bigint; av: bigint; value: number }>(
      join(outDir, 'train', 'observations.parquet'),
      `series_id, ${us}("timestamp") AS ts, ${us}(available_at) AS av, value`,
    );
    const cutoff = isoToMicros('2020-01-01T00:00:00Z');
    expect(Math.max(...train.map((r) => Number(r.av)))).toBeLessThan(cutoff);
    const cpi = new Map(train.filter((r) => r.series_id === 'm:cpi').map((r) => [Number(r.ts), r.value]));
    // A December value published in January is not training data …
    expect(cpi.has(isoToMicros(monthEnd(2019, 12)))).toBe(false);
    expect(cpi.get(isoToMicros(monthEnd(2019, 11)))).toBe(201911);
    // … and neither is a 2021 revision of a 2018 value: the snapshot keeps the value current in 2019.
    expect(cpi.get(isoToMicros(monthEnd(2018, 6)))).toBe(201806);
    expect(train.some((r) => r.value === 999)).toBe(false);
    expect(result.manifest.config.train_cutoff).toBe('2020-01-01T00:00:00.000000Z');

    const series = await rows<{ series_id: string; n_obs: bigint; n_revisions: bigint; last: string }>(
      join(outDir, 'train', 'series.parquet'),
      `series_id, n_obs, n_revisions, strftime(last_timestamp, '%Y-%m') AS last`,
    );
    expect(series.find((s) => s.series_id === 'm:cpi')).toMatchObject({
      n_obs: 35n,
      n_revisions: 0n,
      last: '2019-11',
    });
  });

  it('moves the training cutoff back by the embargo', async () => {
    const { outDir, result } = await split({ embargo: 'P1M' });
    expect(result.manifest.config.train_cutoff).toBe('2019-12-01T00:00:00.000000Z');
    const cpi = await rows<{ m: string }>(
      join(outDir, 'train', 'observations.parquet'),
      `strftime("timestamp", '%Y-%m') AS m`,
      `WHERE series_id = 'm:cpi' ORDER BY "timestamp" DESC LIMIT 1`,
    );
    expect(cpi[0].m).toBe('2019-10'); // October, published 2019-11-15; November came out 2019-12-15
    const bars = await rows<{ av: bigint }>(
      join(outDir, 'train', 'observations.parquet'),
      `max(${us}(available_at)) AS av`,
    );
    expect(Number(bars[0].av)).toBeLessThan(isoToMicros('2019-12-01T00:00:00Z'));
  });

  it('serves each origin its as-of view (nothing published after it), and nothing else', async () => {
    const { outDir } = await split({ origins: 'all' });
    const inputs = await rows<{ series_id: string; o: bigint; ts: bigint; av: bigint; value: number }>(
      join(outDir, 'inputs.parquet'),
      `series_id, ${us}(origin) AS o, ${us}("timestamp") AS ts, ${us}(available_at) AS av, value`,
    );
    expect(inputs.length).toBeGreaterThan(1000);
    expect(inputs.filter((r) => r.av > r.o)).toEqual([]);
    // Row by row against the TypeScript history API (independent as-of implementation).
    const store = await HistoryStore.fromUniverse(join(root, 'u'));
    const origins = await rows<{
      series_id: string;
      o: bigint;
      lookback_steps: number;
      n_input_steps: number;
    }>(join(outDir, 'origins.parquet'), `series_id, ${us}(origin) AS o, lookback_steps, n_input_steps`);
    const byOrigin = new Map<string, string[]>();
    for (const r of inputs) {
      const k = `${r.series_id}@${r.o}`;
      byOrigin.set(k, [...(byOrigin.get(k) ?? []), `${r.ts}:${r.av}:${r.value}`]);
    }
    for (const o of origins) {
      const expected = store
        .historyAt(o.series_id, Number(o.o), o.lookback_steps)
        .map((r) => `${r.timestamp}:${r.available_at}:${r.value}`);
      expect(
        byOrigin.get(`${o.series_id}@${o.o}`) ?? [],
        `${o.series_id} at ${microsToIso(Number(o.o))}`,
      ).toEqual(expected);
      expect(o.n_input_steps).toBe(expected.length);
    }
    // The bar at the origin is in its input (available at the close); the month of a monthly origin is not.
    const barOrigin = isoToMicros('2020-03-02T21:00:00Z');
    expect(
      inputs.some((r) => r.series_id === 'b:px' && Number(r.o) === barOrigin && Number(r.ts) === barOrigin),
    ).toBe(true);
    const jan = isoToMicros(monthEnd(2020, 1));
    const janInputs = inputs.filter((r) => r.series_id === 'm:cpi' && Number(r.o) === jan);
    expect(
      janInputs
        .map((r) => microsToIso(Number(r.ts)).slice(0, 7))
        .sort()
        .at(-1),
    ).toBe('2019-12');
    expect(janInputs).toHaveLength(12);
  });

  it('writes compact inputs and targets that reconstruct exactly the per-origin files', async () => {
    const per = await split({ origins: 'all' });
    const compact = await split({ origins: 'all', layout: 'compact' });
    expect(compact.result.manifest.config.layout).toBe('compact');
    const duck = await Duck.open({ threads: 1 });
    try {
      const f = (dir: string, name: string) => `read_parquet(${quoteLiteral(join(dir, name))})`;
      const expected = await duck.all(
        `SELECT series_id, origin::VARCHAR AS o, "timestamp"::VARCHAR AS t, available_at::VARCHAR AS a, value, step_index
         FROM ${f(per.outDir, 'inputs.parquet')} ORDER BY ALL`,
      );
      const rebuilt = await duck.all(
        `SELECT o.series_id, o.origin::VARCHAR AS o, r."timestamp"::VARCHAR AS t, r.available_at::VARCHAR AS a, r.value,
                r.step_index
         FROM ${f(compact.outDir, 'origins.parquet')} o
         JOIN ${f(compact.outDir, 'inputs.parquet')} r
           ON r.series_id = o.series_id AND r."timestamp" BETWEEN o.lookback_start AND o.origin
          AND r.available_at <= o.origin AND (r.superseded_at IS NULL OR r.superseded_at > o.origin)
         ORDER BY ALL`,
      );
      expect(expected.length).toBeGreaterThan(1000);
      expect(rebuilt).toEqual(expected);
      const sizes = (m: typeof per.result.manifest) =>
        m.outputs.find((o) => o.path === 'inputs.parquet')?.rows ?? 0;
      expect(sizes(compact.result.manifest)).toBeLessThan(sizes(per.result.manifest) / 10);
      const targets = await duck.all(
        `SELECT series_id, origin::VARCHAR AS o, step, "timestamp"::VARCHAR AS t, value, available_at::VARCHAR AS a
         FROM ${f(per.outDir, 'targets.parquet')} ORDER BY ALL`,
      );
      const rebuiltTargets = await duck.all(
        `SELECT o.series_id, o.origin::VARCHAR AS o, (r.step_index - o.origin_index)::INTEGER AS step,
                r."timestamp"::VARCHAR AS t, r.value, r.available_at::VARCHAR AS a
         FROM ${f(compact.outDir, 'origins.parquet')} o
         JOIN ${f(compact.outDir, 'targets.parquet')} r
           ON r.series_id = o.series_id AND r.step_index > o.origin_index AND r.step_index <= o.origin_index + o.horizon_steps
         ORDER BY ALL`,
      );
      expect(targets.length).toBeGreaterThan(1000);
      expect(rebuiltTargets).toEqual(targets);
    } finally {
      duck.close();
    }
  });

  it('places non_overlapping origins H steps apart and all origins on every step', async () => {
    const all = await split({ origins: 'all' });
    const non = await split({ origins: 'non_overlapping' });
    const read = (dir: string) =>
      rows<{ series_id: string; origin_index: number; horizon_steps: number; o: string }>(
        join(dir, 'origins.parquet'),
        `series_id, origin_index, horizon_steps, strftime(origin, '%Y-%m-%d') AS o`,
        'ORDER BY series_id, origin',
      );
    const a = await read(all.outDir);
    const b = await read(non.outDir);
    expect(a.filter((r) => r.series_id === 'm:cpi')).toHaveLength(48);
    expect(a.every((r) => r.o >= '2020-01-01')).toBe(true);
    for (const id of ['m:cpi', 'b:px', 'q:gdp']) {
      const idx = b.filter((r) => r.series_id === id);
      expect(idx.length, id).toBeGreaterThan(1);
      for (let i = 1; i < idx.length; i++) {
        expect(idx[i].origin_index - idx[i - 1].origin_index, id).toBeGreaterThanOrEqual(
          idx[i].horizon_steps,
        );
      }
    }
    expect(b.filter((r) => r.series_id === 'q:gdp').map((r) => r.o)).toEqual([
      '2020-03-31',
      '2021-03-31',
      '2022-03-31',
      '2023-03-31',
    ]);
    expect(non.result.manifest.config).toMatchObject({ origins_policy: 'non_overlapping', dm_valid: true });
    expect(all.result.manifest.config).toMatchObject({ origins_policy: 'all', dm_valid: false });
  });

  it('rejects a Diebold–Mariano request on overlapping origins, saying why', async () => {
    await expect(split({ origins: 'all', dm: true })).rejects.toThrow(
      /Diebold–Mariano.*overlapping.*--origins non_overlapping/,
    );
    await expect(split({ origins: 'non_overlapping', dm: true })).resolves.toBeTruthy();
  });

  it('labels every origin with exactly one of T1/T2/T3, as the definitions say (row by row)', async () => {
    const c = '2021-03-01';
    const r = '2023-06-30';
    const { outDir, result } = await split({ origins: 'all', modelCutoff: c, runDate: r });
    const cM = isoToMicros(`${c}T00:00:00Z`);
    const rM = isoToMicros(`${r}T00:00:00Z`);
    const got = await rows<{
      series_id: string;
      o: bigint;
      k: bigint | null;
      window: string | null;
      h: number;
    }>(
      join(outDir, 'origins.parquet'),
      `series_id, ${us}(origin) AS o, ${us}(target_known_at) AS k, "window", horizon_steps AS h`,
      'ORDER BY series_id, origin',
    );
    // Independent expectation from the raw rows: the grid, and each step's first release public by r.
    const expected: { series_id: string; o: number; label: string }[] = [];
    for (const id of ['b:px', 'm:cpi', 'q:gdp']) {
      const mine = obs.filter((x) => x.series_id === id);
      const grid = [...new Set(mine.map((x) => isoToMicros(x.timestamp)))].sort((a, b) => a - b);
      const firstRelease = new Map<number, number>();
      for (const x of mine) {
        const t = isoToMicros(x.timestamp);
        const a = isoToMicros(x.available_at);
        if (a <= rM && a < (firstRelease.get(t) ?? Number.POSITIVE_INFINITY)) firstRelease.set(t, a);
      }
      const h = got.find((g) => g.series_id === id)?.h ?? 0;
      grid.forEach((o, i) => {
        if (o < isoToMicros('2020-01-01T00:00:00Z') || o > rM) return;
        const steps = grid.slice(i + 1, i + 1 + h);
        const known =
          steps.length === h && steps.every((t) => firstRelease.has(t))
            ? Math.max(...steps.map((t) => firstRelease.get(t) as number))
            : null;
        expected.push({ series_id: id, o, label: labelWindow(o, known, cM, rM) });
      });
    }
    const kept = expected.filter((e) => e.label !== 'straddles_cutoff');
    expect(got.map((g) => `${g.series_id}@${g.o}:${g.window}`)).toEqual(
      kept.map((e) => `${e.series_id}@${e.o}:${e.label}`),
    );
    expect(new Set(got.map((g) => g.window))).toEqual(new Set(['T1', 'T2', 'T3']));
    for (const g of got) {
      const k = g.k === null ? null : Number(g.k);
      const o = Number(g.o);
      const isT1 = k !== null && k < cM;
      const isT2 = o > cM && k !== null && k <= rM;
      const isT3 = k === null || k > rM;
      expect([isT1, isT2, isT3].filter(Boolean), `${g.series_id}@${microsToIso(o)}`).toHaveLength(1);
      expect(g.window).toBe(isT1 ? 'T1' : isT2 ? 'T2' : 'T3');
    }
    expect(result.manifest.summary.origins_straddling_cutoff_dropped).toBe(expected.length - kept.length);
    expect(expected.length - kept.length).toBeGreaterThan(0);
  });

  it('takes targets from the chosen vintage, in a separate file', async () => {
    const first = await split({ origins: 'all', targetVintage: 'first_release' });
    const latest = await split({ origins: 'all', targetVintage: 'latest', runDate: '2021-06-01' });
    const q = `WHERE series_id = 'm:cpi' AND origin = ${quoteLiteral(monthEnd(2020, 1))}::TIMESTAMPTZ ORDER BY step`;
    const a = await rows<{ value: number; step: number }>(
      join(first.outDir, 'targets.parquet'),
      'value, step',
      q,
    );
    const b = await rows<{ value: number; step: number }>(
      join(latest.outDir, 'targets.parquet'),
      'value, step',
      q,
    );
    expect(a.map((r) => r.value)).toEqual(
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((m) => (m <= 12 ? 202000 + m : 202101)),
    );
    expect(b.map((r) => r.value)).toEqual(
      [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].map((m) => (m <= 12 ? 202000.5 + m : 202101)),
    );
    expect(a.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // Inputs carry no target columns: a runner handed inputs.parquet cannot see the answers.
    const duck = await Duck.open({ threads: 1 });
    const cols = await duck.all<{ column_name: string }>(
      `DESCRIBE SELECT * FROM read_parquet(${quoteLiteral(join(first.outDir, 'inputs.parquet'))})`,
    );
    duck.close();
    expect(cols.map((c) => c.column_name)).toEqual([
      'series_id',
      'origin',
      'timestamp',
      'period_start',
      'available_at',
      'value',
      'available_at_basis',
      'source_ref',
      'step_index',
    ]);
  });

  it('writes a verifiable derived manifest naming its parent, byte-identical on a rerun', async () => {
    const parent = await verifyManifest(manifestPath);
    const one = await split({ embargo: '10', modelCutoff: '2020-06-15', runDate: '2021-03-20' });
    const two = await split({ embargo: 'P10D', modelCutoff: '2020-06-15', runDate: '2021-03-20' });
    const m = await verifyManifest(one.result.manifestPath);
    expect(m).toMatchObject({ kind: 'split', parent_dataset_id: parent.dataset_id });
    expect(m.outputs.map((o) => o.path)).toEqual([
      'train/observations.parquet',
      'train/series.parquet',
      'origins.parquet',
      'withdrawals.parquet',
      'inputs.parquet',
      'targets.parquet',
    ]);
    expect(readFileSync(two.result.manifestPath, 'utf8')).toBe(readFileSync(one.result.manifestPath, 'utf8'));
  });

  it('refuses contradictory or unreadable options with exit code 2', async () => {
    await expect(split({ modelCutoff: '2024-06-01' })).rejects.toThrow(/needs --run-date/);
    await expect(split({ modelCutoff: '2024-06-01', runDate: '2023-01-01' })).rejects.toThrow(
      /after --run-date/,
    );
    await expect(split({ embargo: 'soon' })).rejects.toThrow(/--embargo "soon"/);
    await expect(split({ evalStart: '2020/01/01' })).rejects.toMatchObject({ exitCode: 2 });
    await expect(runSplit({ manifestPath, outDir: join(root, 'u') })).rejects.toThrow(
      /--out .*\/u is .*\/u, which this command reads/,
    );
    await expect(runSplit({ manifestPath, outDir: join(root, 'u', 'x') })).rejects.toThrow(
      /--out .*\/u\/x lies inside .*\/u, which this command reads/,
    );
  });
});
