import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isoToMicros, microsToIso } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { openVerifiedManifest } from '@asof/manifest';
import type { GuardCounts } from '@asof/split';
import { runnerFixtureObservations, writeRunnerFixture } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabelCache } from './label-cache.ts';
import { openRunSplit } from './open-run-split.ts';
import type { Predict } from './protocol.ts';
import { type BatchLimits, predictBatches } from './serve-batches.ts';
import { trainingMessages } from './stream-training.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-runner-serve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const lookback = { BD: 20, M: 6, Q: 4 } as const;
let splits: Record<string, string>;
beforeAll(async () => {
  splits = await writeRunnerFixture(root, {
    perOrigin: { origins: 'all', lookback },
    compact: { origins: 'all', lookback, layout: 'compact' },
    embargoed: { embargo: 'P1M', lookback },
  });
}, 120_000);

interface Served {
  batches: Predict[];
  guard: GuardCounts;
  pairs: number;
}

async function serve(manifest: string, limits: BatchLimits = {}): Promise<Served> {
  const verified = await openVerifiedManifest(manifest);
  const duck = await Duck.open({ threads: 1 });
  try {
    const split = await openRunSplit(duck, verified, manifest);
    const guard = { requests: 0, rows: 0 };
    const batches: Predict[] = [];
    for await (const b of predictBatches(duck, split, new LabelCache(), guard, manifest, limits)) {
      batches.push(JSON.parse(b.line));
    }
    return { batches, guard, pairs: split.pairs.length };
  } finally {
    duck.close();
    verified.close();
  }
}

/** Every served input row as text: series | origin | timestamp | available_at | value | back. */
function servedRows(s: Served): string[] {
  return s.batches.flatMap((b) =>
    b.tasks.flatMap((t) =>
      t.inputs.values.map(
        (v, i) =>
          `${t.series_id}|${b.origin}|${t.inputs.timestamps[i]}|${t.inputs.available_at[i]}|${v}|${t.inputs.back[i]}`,
      ),
    ),
  );
}

/** The per-origin split's inputs.parquet, the same way, back = origin_index − step_index. */
async function splitInputRows(manifest: string): Promise<string[]> {
  const dir = dirname(manifest);
  const duck = await Duck.open({ threads: 1 });
  try {
    const rows = await duck.all<{ s: string; o: bigint; ts: bigint; av: bigint; v: number; back: bigint }>(
      `SELECT i.series_id AS s, epoch_us(i.origin) AS o, epoch_us(i."timestamp") AS ts, epoch_us(i.available_at) AS av,
              i.value AS v, o.origin_index - i.step_index AS back
       FROM read_parquet(${quoteLiteral(join(dir, 'inputs.parquet'))}) AS i
       JOIN read_parquet(${quoteLiteral(join(dir, 'origins.parquet'))}) AS o USING (series_id, origin)
       ORDER BY i.origin, i.series_id, i."timestamp"`,
    );
    return rows.map(
      (r) =>
        `${r.s}|${microsToIso(Number(r.o))}|${microsToIso(Number(r.ts))}|${microsToIso(Number(r.av))}|${r.v}|${r.back}`,
    );
  } finally {
    duck.close();
  }
}

describe('predictBatches: what a model is served', { timeout: 120_000 }, () => {
  it('serves exactly the per-origin inputs of the split, through historyAt, counting each check', async () => {
    const served = await serve(splits.perOrigin);
    const expected = await splitInputRows(splits.perOrigin);
    expect(expected.length).toBeGreaterThan(5000);
    expect(servedRows(served)).toEqual(expected);
    expect(served.guard.requests).toBe(served.pairs);
    expect(served.guard.rows).toBe(expected.length);
  });

  it('serves a compact split the same rows as the per-origin one (historyAt picks the vintage)', async () => {
    const served = await serve(splits.compact);
    expect(servedRows(served)).toEqual(await splitInputRows(splits.perOrigin));
  });

  it('serves nothing published after the origin, and a withdrawn value only once it is public again', async () => {
    const served = await serve(splits.compact);
    for (const b of served.batches) {
      const o = isoToMicros(b.origin);
      for (const t of b.tasks) {
        for (let i = 0; i < t.inputs.values.length; i++) {
          expect(isoToMicros(t.inputs.available_at[i])).toBeLessThanOrEqual(o);
          expect(isoToMicros(t.inputs.timestamps[i])).toBeLessThanOrEqual(o);
        }
      }
    }
    const cpiAt = (origin: string) =>
      served.batches
        .filter((b) => b.origin.startsWith(origin))
        .flatMap((b) => b.tasks)
        .find((t) => t.series_id === 'm:cpi');
    // 2019-09 was withdrawn on 2020-02-10 (published again later): at the February 2020 origin it is not
    // public, so the six inputs reach back to 2019-07, and back counts the grid steps across the gap.
    const february = cpiAt('2020-02-29')!;
    expect(february.origin_label).toBe('2020-02');
    expect(february.inputs.labels).toEqual([
      '2019-07',
      '2019-08',
      '2019-10',
      '2019-11',
      '2019-12',
      '2020-01',
    ]);
    expect(february.inputs.back).toEqual([7, 6, 4, 3, 2, 1]);
    expect(cpiAt('2020-01-31')!.inputs.labels).toContain('2019-09');
    // January 2020 was revised (+0.5) on 2020-03-11: the March origin is served the revision, February not.
    expect(february.inputs.values.at(-1)).toBe(202001);
    const march = cpiAt('2020-03-31')!;
    expect(march.inputs.values.slice(-2)).toEqual([202001.5, 202002]);
    expect(march.inputs.available_at.at(-2)).toBe('2020-03-11T13:30:00.000000Z');
  });

  it('batches one origin at a time in chronological order, within the limits, however windows are cut', async () => {
    const whole = await serve(splits.perOrigin);
    const small = await serve(splits.perOrigin, { batchPairs: 1, windowRows: 50 });
    expect(small.batches.length).toBeGreaterThan(whole.batches.length);
    expect(servedRows(small)).toEqual(servedRows(whole));
    expect(small.guard).toEqual(whole.guard);
    let last = Number.NEGATIVE_INFINITY;
    small.batches.forEach((b, i) => {
      expect(b.batch).toBe(i + 1);
      const o = isoToMicros(b.origin);
      expect(o).toBeGreaterThanOrEqual(last);
      last = o;
      expect(b.tasks.length).toBeGreaterThan(0);
      expect(b.tasks.length).toBe(1);
    });
    // By rows: a batch closes once it holds batchRows input rows (the quarter ends hold two series).
    const byRows = await serve(splits.perOrigin, { batchRows: 4 });
    expect(servedRows(byRows)).toEqual(servedRows(whole));
    expect(byRows.batches.length).toBeGreaterThan(whole.batches.length);
    for (const b of byRows.batches) {
      const rows = b.tasks.reduce((n, t) => n + t.inputs.values.length, 0);
      expect(b.tasks.length === 1 || rows - b.tasks.at(-1)!.inputs.values.length < 4).toBe(true);
    }
  });
});

describe('trainingMessages: the fit snapshot', { timeout: 60_000 }, () => {
  it('streams train/observations series by series, every row public before eval_start − embargo', async () => {
    const manifest = splits.embargoed;
    const verified = await openVerifiedManifest(manifest);
    const duck = await Duck.open({ threads: 1 });
    try {
      const split = await openRunSplit(duck, verified, manifest);
      expect(split.train_cutoff).toBe('2019-12-01T00:00:00.000000Z');
      const messages = [];
      for await (const m of trainingMessages(duck, split, new LabelCache(), manifest))
        messages.push(JSON.parse(m.line));
      expect(messages.map((m) => m.series_id)).toEqual(['b:px', 'm:cpi', 'q:gdp']);
      const rows = messages.reduce((n, m) => n + m.history.values.length, 0);
      expect(rows).toBe(split.trainRows);
      const cutoff = isoToMicros(split.train_cutoff);
      for (const m of messages)
        for (const a of m.history.available_at) expect(isoToMicros(a)).toBeLessThan(cutoff);
      const cpi = messages.find((m) => m.series_id === 'm:cpi')!;
      expect(cpi.frequency).toBe('M');
      expect(cpi.eval_target).toBe(true);
      // October 2019 (published 2019-11-15) is the last; 2019-09 is there: its withdrawal came in 2020.
      expect(cpi.history.labels.at(-1)).toBe('2019-10');
      expect(cpi.history.labels).toContain('2019-09');
      const all = runnerFixtureObservations().filter(
        (o) => o.series_id === 'm:cpi' && isoToMicros(o.available_at) < cutoff,
      );
      expect(cpi.history.values.length).toBe(new Set(all.map((o) => o.timestamp)).size);
    } finally {
      duck.close();
      verified.close();
    }
  });
});
