import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import {
  type Forecaster,
  type ForecastTask,
  HistoryStore,
  LookaheadError,
  randomWalkForecaster,
  runForecaster,
  runSplit,
} from '@asof/split';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeOutput, scratchOut } from './helpers.ts';
import { CANARY_T, canaryFixture } from './shared-fixtures.ts';

// The leakage canary (SPEC §8): poison everything published after t — every row with available_at > t gets a
// wildly different value and a later available_at (same timestamps), and every older value gets a wild
// "revision" published after t. Whatever the split and the baselines produce for origins <= t must not move.
// The universes are the run's shared canary (shared-fixtures.ts: built once, read only).
const T = CANARY_T;
const clean = { abs: '' };
const poisoned = { abs: '' };
const splitClean = scratchOut('canary-split-clean');
const splitPoisoned = scratchOut('canary-split-poisoned');
afterAll(() => {
  for (const d of [splitClean, splitPoisoned]) removeOutput(d.abs);
});

async function query<T>(sql: string): Promise<T[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return (await duck.all(sql)) as T[];
  } finally {
    duck.close();
  }
}

/** Rows of inputs for origins <= t in one split but not the other (EXCEPT ALL both ways), and the count. */
async function inputsDifferUpToT(a: string, b: string): Promise<{ n: number; onlyA: number; onlyB: number }> {
  const sel = (dir: string) =>
    `SELECT series_id, origin, "timestamp", available_at, value, period_start, available_at_basis, source_ref
     FROM read_parquet(${quoteLiteral(join(dir, 'inputs.parquet'))}) WHERE origin <= ${quoteLiteral(T)}::TIMESTAMPTZ`;
  const [r] = await query<{ n: bigint; only_a: bigint; only_b: bigint }>(
    `SELECT (SELECT count(*) FROM (${sel(a)})) AS n,
            (SELECT count(*) FROM (${sel(a)} EXCEPT ALL ${sel(b)})) AS only_a,
            (SELECT count(*) FROM (${sel(b)} EXCEPT ALL ${sel(a)})) AS only_b`,
  );
  return { n: Number(r.n), onlyA: Number(r.only_a), onlyB: Number(r.only_b) };
}
const inputsAfterT = (dir: string) =>
  query<{ value: number }>(
    `SELECT value FROM read_parquet(${quoteLiteral(join(dir, 'inputs.parquet'))}) WHERE origin > ${quoteLiteral(T)}::TIMESTAMPTZ
     ORDER BY series_id, origin, "timestamp"`,
  );
const tasksUpToT = async (dir: string): Promise<ForecastTask[]> =>
  (
    await query<{ series_id: string; o: bigint; h: number; l: number }>(
      `SELECT series_id, epoch_us(origin) AS o, horizon_steps AS h, lookback_steps AS l
       FROM read_parquet(${quoteLiteral(join(dir, 'origins.parquet'))}) WHERE origin <= ${quoteLiteral(T)}::TIMESTAMPTZ
       ORDER BY series_id, origin`,
    )
  ).map((r) => ({ series_id: r.series_id, origin: Number(r.o), horizon_steps: r.h, lookback_steps: r.l }));

let cleanStore: HistoryStore;
let poisonedStore: HistoryStore;
let splitCleanManifest: Awaited<ReturnType<typeof runSplit>>['manifest'];
let splitPoisonedManifest: Awaited<ReturnType<typeof runSplit>>['manifest'];

beforeAll(async () => {
  const canary = await canaryFixture();
  clean.abs = canary.clean;
  poisoned.abs = canary.poisoned;
  const options = {
    origins: 'all' as const,
    embargo: 'P7D',
    modelCutoff: '2021-01-01',
    runDate: '2023-06-30',
  };
  splitCleanManifest = (
    await runSplit({ manifestPath: join(clean.abs, 'manifest.json'), outDir: splitClean.abs, ...options })
  ).manifest;
  splitPoisonedManifest = (
    await runSplit({
      manifestPath: join(poisoned.abs, 'manifest.json'),
      outDir: splitPoisoned.abs,
      ...options,
    })
  ).manifest;
  cleanStore = await HistoryStore.fromUniverse(clean.abs);
  poisonedStore = await HistoryStore.fromUniverse(poisoned.abs);
});

describe('leakage canary: poisoning everything published after t changes nothing known at t', () => {
  it('the poison is real: the universes differ, and so do inputs for origins after t', async () => {
    const sha = (m: typeof splitCleanManifest, p: string) => m.outputs.find((o) => o.path === p)?.sha256;
    expect(splitCleanManifest.parent_dataset_id).not.toBe(splitPoisonedManifest.parent_dataset_id);
    expect(sha(splitCleanManifest, 'inputs.parquet')).not.toBe(sha(splitPoisonedManifest, 'inputs.parquet'));
    const a = await inputsAfterT(splitClean.abs);
    const b = await inputsAfterT(splitPoisoned.abs);
    expect(a.length).toBeGreaterThan(0);
    expect(a.map((r) => r.value)).not.toEqual(b.map((r) => r.value));
  });

  it('keeps the training snapshot bit-identical', () => {
    for (const path of ['train/observations.parquet', 'train/series.parquet']) {
      const a = splitCleanManifest.outputs.find((o) => o.path === path);
      const b = splitPoisonedManifest.outputs.find((o) => o.path === path);
      expect(a?.rows, path).toBeGreaterThan(0);
      expect(b?.sha256, path).toBe(a?.sha256);
    }
  });

  it('keeps every input for origins <= t bit-identical', async () => {
    const d = await inputsDifferUpToT(splitClean.abs, splitPoisoned.abs);
    expect(d.n).toBeGreaterThan(1000);
    expect(d).toEqual({ n: d.n, onlyA: 0, onlyB: 0 });
    const series = await query<{ n: bigint }>(
      `SELECT count(DISTINCT series_id) AS n FROM read_parquet(${quoteLiteral(join(splitClean.abs, 'inputs.parquet'))})`,
    );
    expect(Number(series[0].n)).toBeGreaterThan(3);
  });

  it("keeps the random walk's forecasts for origins <= t bit-identical", async () => {
    const tasks = await tasksUpToT(splitClean.abs);
    expect(tasks.length).toBeGreaterThan(100);
    const a = runForecaster(cleanStore, tasks, randomWalkForecaster);
    const b = runForecaster(poisonedStore, tasks, randomWalkForecaster);
    expect(a.length).toBeGreaterThan(1000);
    expect(b.length).toBe(a.length);
    expect(
      b.every((f, i) => Object.is(f.value, a[i].value) && f.origin === a[i].origin && f.step === a[i].step),
    ).toBe(true);
    expect(cleanStore.guard.requests).toBe(tasks.length);
  });

  it('can fail: a forecaster that reads past its origin is caught by the guard, and would have moved', async () => {
    const tasks = await tasksUpToT(splitClean.abs);
    const peek: Forecaster = (task, view) => {
      const later = view.historyAt(task.series_id, task.origin + 86_400_000_000);
      return Array(task.horizon_steps).fill(later.at(-1)?.value ?? 0);
    };
    expect(() => runForecaster(cleanStore, tasks, peek)).toThrow(LookaheadError);
    // Without the guard the same peek reads the poison: the canary comparison would see it.
    const unguarded = (store: HistoryStore) =>
      tasks.map((t) => store.historyAt(t.series_id, t.origin + 365 * 86_400_000_000).at(-1)?.value);
    expect(unguarded(poisonedStore)).not.toEqual(unguarded(cleanStore));
  });
});
