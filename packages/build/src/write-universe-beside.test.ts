import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck, threadsOf } from '@asof/duck';
import { sha256Hex } from '@asof/manifest';
import { buildSegments } from '@asof/patterns';
import type { SeriesInput } from '@asof/schema';
import {
  createStagingTables,
  runModels,
  StageSink,
  UNIVERSE_MODELS,
  type WrittenTable,
  writeUniverse,
} from '@asof/transform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writesBesideSegments, writeUniverseBeside } from './write-universe-beside.ts';

const DAY = 86_400_000_000;
const SERIES: SeriesInput = {
  series_id: 'syn:px:a',
  source: 'test',
  source_key: 'a',
  title: 'A close',
  unit: 'USD',
  frequency: 'BD',
  scope: 'Individual',
  category: 'Equity',
  detail_category: 'Close',
  entity_id: 'a',
  entity_name: 'A',
  currency: 'USD',
  seasonal_adjustment: 'NSA',
  fiscal_year_end: null,
  is_synthetic: true,
  universe_kind: 'static',
};

let dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'asof-beside-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A universe of two business-day series over three years, through the models the build runs. */
async function smallUniverse(): Promise<Duck> {
  const duck = await Duck.open({ threads: 2 });
  await createStagingTables(duck);
  await duck.run("INSERT INTO registry_units VALUES ('Individual','Equity','Close','BD',true,true)");
  await duck.run("INSERT INTO registry_horizons VALUES ('BD',20,60)");
  const sink = await StageSink.create(duck);
  for (const id of ['a', 'b']) {
    sink.addSeries({ ...SERIES, series_id: `syn:px:${id}`, source_key: id, entity_id: id });
    // Weekdays from Monday 2013-10-28 (day 16,006 since the epoch), on the business-day grid.
    const days = Array.from({ length: 780 }, (_, i) => 16_006 + i + 2 * Math.floor(i / 5));
    sink.addObservations({
      series_id: `syn:px:${id}`,
      timestamp: Float64Array.from(days, (d) => d * DAY + 72_000_000_000),
      available_at: Float64Array.from(days, (d) => d * DAY + 72_000_000_000),
      value: Float64Array.from(
        days,
        (d, i) => 100 * Math.exp(0.01 * Math.sin(d / (id === 'a' ? 7 : 11)) + i / 5000),
      ),
      available_at_basis: 'bar_close',
      source_ref: `test:${id}`,
    });
  }
  sink.close();
  await runModels(duck, UNIVERSE_MODELS, { eval_start: '2020-01-01T00:00:00Z' });
  return duck;
}

const hashes = (dir: string, files: WrittenTable[]) =>
  files.map((f) => `${f.path} ${sha256Hex(readFileSync(join(dir, f.path)))}`);

describe('writeUniverseBeside', () => {
  let duck: Duck;
  beforeEach(async () => {
    duck = await smallUniverse();
  });
  afterEach(() => duck.close());

  it('writes the same files beside the segments as after them, and the segments are built', async () => {
    const beside = newDir();
    let threads = 0;
    const files = await writeUniverseBeside(duck, beside, async () => {
      // Two connections run queries at once: DuckDB's threads is one lower meanwhile (the instance has 2).
      threads = await threadsOf(duck);
      await buildSegments(duck);
    });
    expect(threads).toBe(1);
    expect(await threadsOf(duck)).toBe(2);
    const segments = await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM segments');
    expect(Number(segments.n)).toBeGreaterThan(0);
    const after = newDir();
    const again = await writeUniverse(duck, after);
    expect(files.map((f) => f.path)).toContain('observations/frequency=BD/data.parquet');
    expect(hashes(beside, files)).toEqual(hashes(after, again));
  });

  it("throws the segments' error once the write has settled, and leaves the database usable", async () => {
    const boom = new Error('segments failed');
    await expect(writeUniverseBeside(duck, newDir(), () => Promise.reject(boom))).rejects.toBe(boom);
    const one = await duck.one<{ n: number }>('SELECT 1 AS n');
    expect(one.n).toBe(1);
    expect(await threadsOf(duck)).toBe(2);
  });

  it("throws the write's error when only the write fails", async () => {
    await duck.run('DROP VIEW observations');
    let built = false;
    await expect(
      writeUniverseBeside(duck, newDir(), async () => {
        built = true;
      }),
    ).rejects.toThrow(/observations/);
    expect(built).toBe(true);
  });
});

describe('writesBesideSegments', () => {
  it('keeps the files and the segments in turn when the memory limit cannot hold both (audit row 7.2)', () => {
    const defaultRows = 5_416_824; // the default build's staged rows
    // The default universe at 200MB: side by side it ran out of memory writing the BD file.
    expect(writesBesideSegments(defaultRows, 200e6)).toBe(false);
    expect(writesBesideSegments(defaultRows, 600e6)).toBe(false);
    expect(writesBesideSegments(defaultRows, 700e6)).toBe(true);
    // 60% of a 16 GB machine; an unknown limit keeps the measured default.
    expect(writesBesideSegments(defaultRows, 9.6e9)).toBe(true);
    expect(writesBesideSegments(defaultRows, null)).toBe(true);
    // The tiny pipeline at asof's minimum, and any universe from 10M rows, in turn.
    expect(writesBesideSegments(106_663, 64e6)).toBe(false);
    expect(writesBesideSegments(10_000_000, 1e12)).toBe(false);
  });
});
