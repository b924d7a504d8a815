import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { maseOriTask, type ScoringResults, scoreSplit, type TaskRow } from '@asof/scoring';
import { runSplit, writeBaselineForecasts } from '@asof/split';
import { type MiniObservation, writeMiniUniverse } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeOutput, scratchOut } from './helpers.ts';

// `asof score` on a split written with --layout compact gives exactly what it gives on the same split
// written per origin: the compact input_rows/target_rows are expanded to the same per-origin view, with
// revisions, a withdrawal (and its restoration), a late first release that no origin's window reaches (in
// the compact file, not in the per-origin one) and a series that goes negative among the inputs. And
// `asof baselines` agrees with the scorer's own baselines across a withdrawal: before the split wrote
// withdrawals.parquet, its HistoryStore (rebuilt from the NULL-free served rows) kept serving the withdrawn
// value, and its seasonal naive differed from the scorer's at m:withdrawn @ 2021-07-31.
const universe = scratchOut('score-compact-universe');
const perOrigin = scratchOut('score-compact-per-origin');
const compact = scratchOut('score-compact-compact');
const out = scratchOut('score-compact-out');
afterAll(() => {
  for (const d of [universe, perOrigin, compact, out]) removeOutput(d.abs);
});

const SERIES = ['m:revised', 'm:withdrawn', 'm:spread'];
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

function observations(): MiniObservation[] {
  const rows: MiniObservation[] = [];
  let level = 100;
  for (let k = 0; k < 15 * 12; k++) {
    const end = Date.UTC(2010, k + 1, 0, 23, 59, 59);
    level *= 1 + 0.03 * Math.sin(k * 1.7) + 0.002;
    const v = Math.round(level * 100) / 100;
    // Revised: first print 15 days after the month, revised 45 days later. 2021-01 is first printed 8
    // months late, when it is older than every later origin's 3-month window: no origin is served it.
    const late = k === 132 ? 240 * DAY : 0;
    rows.push({
      series_id: 'm:revised',
      timestamp: iso(end),
      available_at: iso(end + late + 15 * DAY),
      value: v,
    });
    rows.push({
      series_id: 'm:revised',
      timestamp: iso(end),
      available_at: iso(end + late + 60 * DAY),
      value: v + 0.5,
    });
    // Withdrawn: 2021-03 is withdrawn in 2021-07 and published again in 2022-02.
    rows.push({
      series_id: 'm:withdrawn',
      timestamp: iso(end),
      available_at: iso(end + 10 * DAY),
      value: v / 2,
    });
    if (k === 134) {
      rows.push({
        series_id: 'm:withdrawn',
        timestamp: iso(end),
        available_at: '2021-07-15T12:00:00Z',
        value: null,
      });
      rows.push({
        series_id: 'm:withdrawn',
        timestamp: iso(end),
        available_at: '2022-02-15T12:00:00Z',
        value: v / 2 + 1,
      });
    }
    // A spread around zero.
    rows.push({
      series_id: 'm:spread',
      timestamp: iso(end),
      available_at: iso(end + 5 * DAY),
      value: Math.round(Math.sin(k / 3) * 100) / 100,
    });
  }
  return rows;
}

const tasks: TaskRow[] = SERIES.flatMap((series_id) => {
  const mase = maseOriTask(series_id, { frequency: 'M' });
  return [mase, { ...mase, metric: 'HR', p: '1m', h: '3m', p_steps: 1, h_steps: 3 }];
});

let a: ScoringResults;
let b: ScoringResults;
let sameFile = false;
beforeAll(async () => {
  await writeMiniUniverse(universe.abs, {
    name: 'score-compact',
    eval_start: '2020-01-01',
    series: SERIES.map((series_id) => ({ series_id, frequency: 'M' as const, eval_target: true })),
    observations: observations(),
  });
  const parent = join(universe.abs, 'manifest.json');
  const split = {
    manifestPath: parent,
    origins: 'all' as const,
    lookback: { M: 3 },
    runDate: '2024-06-30',
    threads: 1,
  };
  await runSplit({ ...split, outDir: perOrigin.abs });
  await runSplit({ ...split, outDir: compact.abs, layout: 'compact' });
  // `asof baselines` of the per-origin split, submitted to both: each scorer checks it equals its own baselines
  // at every point (else FORECAST_BASELINE_MISMATCH), so the compact expansion must reproduce every y_o,
  // history tail and whole history.
  mkdirSync(out.abs, { recursive: true });
  const baselines = join(out.abs, 'baselines.parquet');
  await writeBaselineForecasts(join(perOrigin.abs, 'manifest.json'), baselines);
  // And the compact split's own `asof baselines` file: the same forecasts, row for row.
  const compactBaselines = join(out.abs, 'baselines-compact.parquet');
  await writeBaselineForecasts(join(compact.abs, 'manifest.json'), compactBaselines);
  sameFile = readFileSync(compactBaselines).equals(readFileSync(baselines));
  const options = { tasks, allowOverlap: true };
  a = await scoreSplit(join(perOrigin.abs, 'manifest.json'), [baselines], options);
  b = await scoreSplit(join(compact.abs, 'manifest.json'), [baselines], options);
}, 120_000);

describe('scoring a compact split', () => {
  it('the two splits differ in layout only', () => {
    expect(a.dataset_id).not.toBe(b.dataset_id);
    expect(a.origins.series).toBe(3);
    expect(a.origins.origins).toBeGreaterThan(50);
  });

  it('asof baselines writes the same file from either layout', () => {
    expect(sameFile).toBe(true);
  });

  it('gives the same values, ranks and verdicts as the per-origin split', () => {
    expect(b.origins).toEqual(a.origins);
    expect(b.values).toEqual(a.values);
    expect(b.verdicts).toEqual(a.verdicts);
    expect(b.ranks).toEqual(a.ranks);
    expect(b.warnings).toEqual(a.warnings);
    expect(a.warnings).toContainEqual(expect.objectContaining({ code: 'SUBMITTED_BASELINES_MATCH' }));
    // The spread reaches ≤ 0: scored in scaled change.
    expect(a.warnings).toContainEqual(expect.objectContaining({ code: 'TYCHEON_SCALED_CHANGE', count: 1 }));
  });
});
