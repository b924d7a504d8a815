import { Duck } from '@asof/duck';
import { CollectingSink, InputError } from '@asof/schema';
import { generateSyntheticPrices, priceProcessOf } from '@asof/source-embedded';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSegments } from './build-segments.ts';
import { CharacteristicsPool } from './characteristics/characteristics-pool.ts';
import { loadPanel } from './load-panel.ts';

// 50 instruments × 5 fields, 2005–2012 on the weekday grid: full BD segments 6…12 (2005-01-03 is
// weekday 1305 of the grid, inside segment 5; segments 5 and 13 are partial and so not segments).
const INSTRUMENTS = 50;

interface Row {
  series_id: string;
  segment: number;
  label: string | null;
  quota_label: string | null;
  adf_stat: number | null;
  acf1: number | null;
  forecastability: number | null;
  coverage: number;
}

let duck: Duck;
let rows: Row[];
beforeAll(async () => {
  const sink = new CollectingSink();
  generateSyntheticPrices(
    { seed: 20260101, start: '2005-01-03', end: '2012-12-31', instruments: INSTRUMENTS },
    sink,
  );
  duck = await Duck.open();
  await loadPanel(duck, sink.series, sink.observations);
  await buildSegments(duck);
  rows = await duck.all<Row>(
    'SELECT series_id, segment, label, quota_label, adf_stat, acf1, forecastability, coverage FROM segments ORDER BY series_id, segment',
  );
}, 60_000);
afterAll(() => duck?.close());

const instrumentOf = (id: string) => Number(/syn:px:[A-Z]+(\d+):/.exec(id)?.[1]);
const closes = (process: string) =>
  rows.filter((r) => r.series_id.endsWith(':close') && priceProcessOf(instrumentOf(r.series_id)) === process);
const share = (rs: Row[], pred: (r: Row) => boolean) => rs.filter(pred).length / rs.length;

describe('buildSegments on seeded synthetic prices', () => {
  it('labels and characterises every full segment of every BD series', () => {
    expect(rows.length).toBe(INSTRUMENTS * 5 * 7);
    expect(new Set(rows.map((r) => r.segment))).toEqual(new Set([6, 7, 8, 9, 10, 11, 12]));
    for (const r of rows) {
      expect(r.label).not.toBeNull();
      expect(
        Number.isFinite(r.adf_stat) && Number.isFinite(r.acf1) && Number.isFinite(r.forecastability),
      ).toBe(true);
    }
  });

  it('finds driftless random walks mostly volatile and jump processes mostly extreme (threshold mode)', () => {
    const rw = closes('random_walk');
    const jump = closes('jump');
    expect(rw.length).toBe(70);
    expect(share(rw, (r) => r.label === 'volatile')).toBeGreaterThanOrEqual(0.7);
    expect(share(jump, (r) => r.label === 'extreme')).toBeGreaterThanOrEqual(0.5);
    expect(share(rw, (r) => r.label === 'extreme')).toBeLessThanOrEqual(0.1);
  });

  it('ranks strong-drift GBMs into the trend of their drift (quota mode)', () => {
    const gbm = closes('gbm_drift');
    // The generator's drift sign: + when ⌊i/5⌋ is even.
    const up = (r: Row) => Math.floor(instrumentOf(r.series_id) / 5) % 2 === 0;
    const matched = share(gbm, (r) => r.quota_label === (up(r) ? 'uptrend' : 'downtrend'));
    const wrong = share(gbm, (r) => r.quota_label === (up(r) ? 'downtrend' : 'uptrend'));
    expect(matched).toBeGreaterThanOrEqual(0.6);
    expect(wrong).toBeLessThanOrEqual(0.05);
  });

  it('produces the same table on a second run (sums in one order)', async () => {
    const again = await duck.all<Row>(
      'SELECT series_id, segment, label, quota_label, adf_stat, acf1, forecastability, coverage FROM segments ORDER BY series_id, segment',
    );
    expect(again).toEqual(rows);
    await buildSegments(duck);
    const rebuilt = await duck.all<Row & { ret_std: number }>(
      'SELECT series_id, segment, label, quota_label, adf_stat, acf1, forecastability, coverage FROM segments ORDER BY series_id, segment',
    );
    expect(rebuilt).toEqual(rows);
  }, 60_000);

  it('gives the same segments, bit for bit, with the characteristics on worker threads as inline', async () => {
    const all = 'SELECT * FROM segments ORDER BY series_id, segment';
    await buildSegments(duck, { workers: 0 });
    const inline = await duck.all(all);
    expect(inline.length).toBeGreaterThan(100);
    for (const workers of [1, 2]) {
      await buildSegments(duck, { workers });
      expect(await duck.all(all), `${workers} workers`).toEqual(inline);
    }
    // Workers the caller started beforehand (as the build does while its sources run) are used and
    // left running for the caller: a second build uses them again.
    const pool = new CharacteristicsPool(2).start();
    const batches = vi.spyOn(pool, 'run');
    try {
      for (const run of [1, 2]) {
        batches.mockClear();
        await buildSegments(duck, { pool, workers: 0 });
        expect(await duck.all(all), `caller's pool, build ${run}`).toEqual(inline);
        expect(batches).toHaveBeenCalled();
      }
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('rejects bad options naming the value', async () => {
    await expect(buildSegments(duck, { lengths: { BD: 5 } })).rejects.toThrow(InputError);
    await expect(buildSegments(duck, { upShare: 0.4, downShare: 0.5 })).rejects.toThrow(/downShare 0.5/);
    await expect(buildSegments(duck, { epoch: '2000-01-04' })).rejects.toThrow(/Monday/);
  });
});
