import { join } from 'node:path';
import { buildUniverse, PipelineConfig } from '@asof/build';
import { labelWindow } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { verifyManifest } from '@asof/manifest';
import { tradingSessionGrid } from '@asof/source-embedded';
import { runSplit } from '@asof/split';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeOutput, scratchOut } from './helpers.ts';

// Issue 8's acceptance checks on a built (synthetic) universe shaped like the default: bars, ALFRED-style
// monthly vintages and EDGAR quarterly filings, 2015–2025.
const universe = scratchOut('split-universe');
const plain = scratchOut('split-plain');
const windows = scratchOut('split-windows');
afterAll(() => {
  for (const d of [universe, plain, windows]) removeOutput(d.abs);
});

async function one<T>(sql: string): Promise<T> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return (await duck.one(sql)) as T;
  } finally {
    duck.close();
  }
}
const file = (dir: string, name: string) => `read_parquet(${quoteLiteral(join(dir, name))})`;

beforeAll(async () => {
  const config = PipelineConfig.parse({
    name: 'split-acceptance',
    eval_start: '2020-01-01',
    sources: {
      embedded: { synthetic: { seed: 11, start: '2015-01-02', end: '2025-12-31', instruments: 2 } },
      fred: { synthetic: { seed: 11, start: '2012-01-01', end: '2025-12-31', count: 3 } },
      edgar: { synthetic: { seed: 11, companies: 2, first_fiscal_year: 2013, fiscal_years: 13 } },
    },
  });
  await buildUniverse({ config, outDir: universe.abs });
});

describe('asof split acceptance (issue 8)', () => {
  it('trains strictly before eval_start − embargo and serves inputs only from before each origin', async () => {
    const { manifest } = await runSplit({
      manifestPath: join(universe.abs, 'manifest.json'),
      outDir: plain.abs,
      embargo: '30',
    });
    expect(await verifyManifest(join(plain.abs, 'manifest.json'))).toMatchObject({ kind: 'split' });
    const train = await one<{ max: string; n: bigint }>(
      `SELECT strftime(max(available_at), '%Y-%m-%dT%H:%M:%S') AS max, count(*) AS n FROM ${file(plain.abs, 'train/observations.parquet')}`,
    );
    expect(Number(train.n)).toBeGreaterThan(1000);
    expect(train.max < '2019-12-02T00:00:00').toBe(true);
    expect(manifest.config.train_cutoff).toBe('2019-12-02T00:00:00.000000Z');
    const inputs = await one<{ bad: bigint; n: bigint; f: bigint }>(
      `SELECT count(*) FILTER (WHERE available_at > origin) AS bad, count(*) AS n, count(DISTINCT series_id) AS f
       FROM ${file(plain.abs, 'inputs.parquet')}`,
    );
    expect(Number(inputs.n)).toBeGreaterThan(1000);
    expect(Number(inputs.bad)).toBe(0);
    // non_overlapping (the default) puts consecutive origins of a series at least H steps apart.
    const spacing = await one<{ min_gap: number; short: bigint; series: bigint }>(
      `WITH o AS (SELECT series_id, horizon_steps AS h,
                         origin_index - lag(origin_index) OVER (PARTITION BY series_id ORDER BY origin) AS gap
                  FROM ${file(plain.abs, 'origins.parquet')})
       SELECT min(gap) AS min_gap, count(*) FILTER (WHERE gap < h) AS short, count(DISTINCT series_id) AS series FROM o`,
    );
    expect(Number(spacing.series)).toBeGreaterThan(3);
    expect(Number(spacing.short)).toBe(0);
    expect(spacing.min_gap).toBeGreaterThanOrEqual(4);
    // Issue 20: origins follow the bars, and synthetic bars are US sessions (never a holiday such as
    // Christmas Day; 13:00 New York on an early close).
    const duck = await Duck.open({ threads: 1 });
    const bd = await duck.all<{ o: bigint }>(
      `SELECT DISTINCT epoch_us(origin) AS o FROM ${file(plain.abs, 'origins.parquet')} WHERE frequency = 'BD' AND series_id LIKE 'syn:px:%'`,
    );
    duck.close();
    const sessions = new Set(tradingSessionGrid('2015-01-02', '2025-12-31').map((d) => d.close));
    expect(bd.length).toBeGreaterThan(3);
    expect(bd.filter((r) => !sessions.has(Number(r.o)))).toEqual([]);
  });

  it('rejects Diebold–Mariano on overlapping origins with the reason', async () => {
    await expect(
      runSplit({
        manifestPath: join(universe.abs, 'manifest.json'),
        outDir: windows.abs,
        origins: 'all',
        dm: true,
      }),
    ).rejects.toThrow(/Diebold–Mariano.*overlapping H-step targets.*autocorrelated/);
  });

  it('labels every origin T1, T2 or T3 for a model cutoff 2024-06-01 and run date 2026-11-29', async () => {
    const { manifest } = await runSplit({
      manifestPath: join(universe.abs, 'manifest.json'),
      outDir: windows.abs,
      modelCutoff: '2024-06-01',
      runDate: '2026-11-29',
    });
    const duck = await Duck.open({ threads: 1 });
    const rows = await duck.all<{ o: bigint; k: bigint | null; w: string }>(
      `SELECT epoch_us(origin) AS o, epoch_us(target_known_at) AS k, "window" AS w FROM ${file(windows.abs, 'origins.parquet')}`,
    );
    duck.close();
    const c = Date.UTC(2024, 5, 1) * 1000;
    const r = Date.UTC(2026, 10, 29) * 1000;
    expect(rows.length).toBeGreaterThan(50);
    const seen = new Set<string>();
    for (const row of rows) {
      const label = labelWindow(Number(row.o), row.k === null ? null : Number(row.k), c, r);
      expect(label).not.toBe('straddles_cutoff');
      expect(row.w).toBe(label);
      seen.add(row.w);
    }
    expect([...seen].sort()).toEqual(['T1', 'T2', 'T3']);
    expect(manifest.summary.origins_straddling_cutoff_dropped).toBeGreaterThan(0);
    expect(manifest.config).toMatchObject({
      model_cutoff: '2024-06-01T00:00:00.000000Z',
      run_date: '2026-11-29T00:00:00.000000Z',
    });
  });
});
