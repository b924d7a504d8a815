import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildUniverse, PipelineConfig } from '@asof/build';
import { Duck, quoteLiteral } from '@asof/duck';
import { verifyManifest } from '@asof/manifest';
import { readTasksTable, type ScoringResults, scoreSplit } from '@asof/scoring';
import { priceProcessOf, syntheticInstrumentId } from '@asof/source-embedded';
import { runSplit, writeBaselineForecasts } from '@asof/split';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, scratchOut } from './helpers.ts';

// Issue 9 acceptance: on the default build's synthetic driftless random walks no baseline beats the random
// walk, and a forecaster fed the future (an oracle) is flagged as beating it. The universe is the default's
// synthetic price panel exactly (pipelines/default.json: same generator, seed, dates and 200 instruments,
// so the same 40 driftless random walks, process = instrument index mod 5), without the default's other
// sources, which the random walks do not depend on.
const universe = scratchOut('score-rw-universe');
const split = scratchOut('score-rw-split');
const out = scratchOut('score-rw-out');
afterAll(() => {
  for (const d of [universe, split, out]) removeOutput(d.abs);
});

const INSTRUMENTS = 200;
/** The driftless random walks: the close of every instrument whose process is random_walk. */
const randomWalkSeries = new Set(
  Array.from({ length: INSTRUMENTS }, (_, i) => i)
    .filter((i) => priceProcessOf(i) === 'random_walk')
    .map((i) => `syn:px:${syntheticInstrumentId(i)}:close`),
);

let results: ScoringResults;
let cliScore: Awaited<ReturnType<typeof asof>>;
beforeAll(async () => {
  const config = PipelineConfig.parse({
    name: 'score-random-walks',
    eval_start: '2020-01-01',
    sources: {
      embedded: {
        synthetic: { seed: 20260101, start: '2005-01-03', end: '2025-12-31', instruments: INSTRUMENTS },
      },
    },
  });
  await buildUniverse({ config, outDir: universe.abs });
  const universeManifest = join(universe.abs, 'manifest.json');
  // Non-overlapping origins (≥ H steps apart): the Diebold–Mariano verdicts are valid. The split holds the 40
  // driftless random walks alone (issue 50): each series' origins, inputs and baselines depend on that series
  // only, so the verdicts are the whole split's, without fitting ARIMA and GARCH to the other 960 series.
  await runSplit({
    manifestPath: universeManifest,
    outDir: split.abs,
    dm: true,
    series: [...randomWalkSeries],
  });
  const splitManifest = join(split.abs, 'manifest.json');
  const baselines = join(out.abs, 'baselines.parquet');
  mkdirSync(out.abs, { recursive: true });
  await writeBaselineForecasts(splitManifest, baselines);
  // The oracle: the split's own labels (targets.parquet), the random walk's value where a target is pending.
  const oracle = join(out.abs, 'oracle.parquet');
  const duck = await Duck.open({ threads: 2 });
  try {
    const file = (name: string) => quoteLiteral(join(split.abs, name));
    await duck.writeParquet(
      `WITH steps AS (
         SELECT series_id, origin, unnest(generate_series(1, horizon_steps)) AS step FROM read_parquet(${file('origins.parquet')})
       ),
       last_input AS (
         SELECT series_id, origin, arg_max(value, "timestamp") AS y0 FROM read_parquet(${file('inputs.parquet')}) GROUP BY ALL
       )
       SELECT 'oracle' AS model, s.series_id, strftime(s.origin, '%Y-%m-%dT%H:%M:%S.%fZ') AS origin, s.step::INTEGER AS step,
              coalesce(t.value, l.y0) AS value
       FROM steps AS s
       JOIN last_input AS l USING (series_id, origin)
       LEFT JOIN read_parquet(${file('targets.parquet')}) AS t USING (series_id, origin, step)
       ORDER BY model, series_id, origin, step`,
      oracle,
    );
  } finally {
    duck.close();
  }
  const tasks = (await readTasksTable(await verifyManifest(universeManifest), universe.abs))!;
  results = await scoreSplit(splitManifest, [baselines, oracle], {
    tasks: tasks.filter((t) => randomWalkSeries.has(t.series_id)),
  });
  cliScore = await asof(
    'score',
    '--manifest',
    split.rel + '/manifest.json',
    '--forecasts',
    `${out.rel}/baselines.parquet`,
    '--universe',
    `${universe.rel}/manifest.json`,
    '--out',
    `${out.rel}/score`,
    '--json',
  );
});

describe('scoring the default synthetic driftless random walks (issue 9 acceptance)', () => {
  const pooled = (model: string) => results.verdicts.rows.find((r) => r.model === model && r.unit === '*')!;

  it('scores exactly the 40 driftless random walks, with valid (non-overlapping) verdicts', () => {
    expect(randomWalkSeries.size).toBe(40);
    expect(results.verdicts.status).toBe('ok');
    expect(results.origins.overlapping).toBe(false);
    // Every pooled DM point is an origin of a random-walk series with a realised horizon end.
    expect(pooled('drift').n).toBeGreaterThanOrEqual(40 * 4);
  });

  it('finds no baseline that beats the random walk, pooled or in any unit (ARIMA and GARCH included)', () => {
    const baselines = results.models
      .filter((m) => m.baseline && m.model !== 'random_walk')
      .map((m) => m.model);
    expect(baselines).toEqual(['drift', 'seasonal_naive', 'arima', 'garch']);
    for (const row of results.verdicts.rows.filter((r) => baselines.includes(r.model))) {
      if (row.unit === '*')
        console.info(
          `${row.model} vs random_walk on ${row.n} origins: DM squared error ${row.squared_error?.statistic ?? 'n/a'}, CRPS ${row.crps?.statistic ?? 'n/a'} → ${row.verdict}`,
        );
      expect(row.verdict, `${row.model} in ${row.unit}`).not.toBe('beats');
    }
    // GARCH's median is y_o: its squared error is the random walk's, so it can never beat it; its CRPS
    // (on the quantile grid, against the random walk's Gaussian on the same grid) is a real test.
    const garch = pooled('garch');
    expect(garch.squared_error!.statistic).toBeNull();
    expect(garch.crps!.statistic).not.toBeNull();
    // ARIMA's drift and ARMA terms from a 260-session window only add variance on a driftless walk: it may
    // honestly be worse (packages/cli/bench/baseline-verdicts.ts: worse on 21 of 21 seeds), never better.
    expect(pooled('arima').squared_error!.statistic).not.toBeNull();
  });

  it('finds drift and seasonal naive indistinguishable from the random walk', () => {
    for (const model of ['drift', 'seasonal_naive']) {
      const row = pooled(model);
      console.info(
        `${model} vs random_walk on ${row.n} origins: DM squared error ${JSON.stringify(row.squared_error)}, CRPS ${JSON.stringify(row.crps)} → ${row.verdict}${row.note ? ` (${row.note})` : ''}`,
      );
      expect(row.verdict).toBe('indistinguishable');
    }
    // Drift is a real test here: its horizon-end forecasts differ from the random walk's at every origin.
    expect(pooled('drift').squared_error!.statistic).not.toBeNull();
    expect(pooled('drift').crps!.statistic).not.toBeNull();
    // H = 260 business days is 52 whole seasons of 5: at the horizon end (the Tycheon space the verdict is
    // computed in) seasonal naive is y_o, the random walk itself, so its differential is identically zero.
    // Drift is only indistinguishable because it is taken in log levels for these positive prices
    // (docs/decisions/0009): the level slope (y_o − y_1)/(n − 1) came out 'worse' (DM +2.66, p = 0.004) and
    // even forecast negative prices for some seeds. Estimating a zero drift only adds variance, so on other
    // seeds drift may honestly come out 'worse' (6 of 21 seeds in the decision record on the weekday grid;
    // 7 of 21 since issue 20 put the panel on US sessions, 200 pooled origins here instead of 240, the
    // default seed still indistinguishable: DM +0.16 / +1.25, decision 0015); it never 'beats'.
  });

  it('flags the oracle (fed the future) as beating the random walk', () => {
    const row = pooled('oracle');
    console.info(
      `oracle vs random_walk on ${row.n} origins: DM squared error ${JSON.stringify(row.squared_error)}, CRPS ${JSON.stringify(row.crps)} → ${row.verdict}`,
    );
    expect(row.verdict).toBe('beats');
    expect(row.squared_error!.p_model_better).toBeLessThan(0.05);
    expect(row.crps!.p_model_better).toBeLessThan(0.05);
  });

  it('asof score accepts the asof baselines file on the whole (random-walk) split, checked against its own baselines', () => {
    expect(cliScore.stderr).not.toMatch(/FORECAST_BASELINE_MISMATCH|differs|refused/);
    expect(cliScore.code).toBe(0);
    expect(JSON.parse(cliScore.stdout).verdicts).toBe('ok');
  });
});
