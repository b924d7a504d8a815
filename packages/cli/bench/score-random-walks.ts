// Measures the issue 9 acceptance figures on the default synthetic price panel's 40 driftless random walks:
// DM verdicts vs the random walk of drift (whole-history slope, in log levels for these positive prices, and
// the former tail slope), seasonal naive
// and an oracle. Reuses out/bench-score-rw between runs (delete it to rebuild).
//   npx tsx packages/cli/bench/score-random-walks.ts        (from the repo root)
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildUniverse, PipelineConfig } from '@asof/build';
import { Duck, quoteLiteral } from '@asof/duck';
import { verifyManifest } from '@asof/manifest';
import { readSplitTables, readTasksTable, type ScoringResults, scoreSplit } from '@asof/scoring';
import { priceProcessOf, syntheticInstrumentId } from '@asof/source-embedded';
import { runSplit, writeBaselineForecasts } from '@asof/split';

const root = join(process.cwd(), 'out', 'bench-score-rw');
const universe = join(root, 'universe');
const split = join(root, 'split');
const instruments = Number(process.env.INSTRUMENTS ?? 200);
const rw = new Set(
  Array.from({ length: instruments }, (_, i) => i)
    .filter((i) => priceProcessOf(i) === 'random_walk')
    .map((i) => `syn:px:${syntheticInstrumentId(i)}:close`),
);
const t0 = performance.now();
const lap = (what: string) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${what}`);
if (!existsSync(join(split, 'manifest.json'))) {
  const config = PipelineConfig.parse({
    name: 'bench-score-rw',
    eval_start: '2020-01-01',
    sources: {
      embedded: { synthetic: { seed: 20260101, start: '2005-01-03', end: '2025-12-31', instruments } },
    },
  });
  await buildUniverse({ config, outDir: universe, cwd: process.cwd() });
  lap('built');
  await runSplit({ manifestPath: join(universe, 'manifest.json'), outDir: split, dm: true });
  lap('split');
}
mkdirSync(join(root, 'f'), { recursive: true });
const baselines = join(root, 'f', 'baselines.parquet');
const b = await writeBaselineForecasts(join(split, 'manifest.json'), baselines);
lap(`asof baselines: ${b.rows} rows, guard ${JSON.stringify(b.guard)}`);
const oracle = join(root, 'f', 'oracle.parquet');
const duck = await Duck.open({ threads: 2 });
const file = (n: string) => quoteLiteral(join(split, n));
await duck.writeParquet(
  `WITH steps AS (SELECT series_id, origin, unnest(generate_series(1, horizon_steps)) AS step FROM read_parquet(${file('origins.parquet')})),
   last_input AS (SELECT series_id, origin, arg_max(value, "timestamp") AS y0 FROM read_parquet(${file('inputs.parquet')}) GROUP BY ALL)
   SELECT 'oracle' AS model, s.series_id, iso_instant(s.origin) AS origin, s.step::INTEGER AS step,
          coalesce(t.value, l.y0) AS value
   FROM steps AS s JOIN last_input AS l USING (series_id, origin)
   LEFT JOIN read_parquet(${file('targets.parquet')}) AS t USING (series_id, origin, step)
   ORDER BY model, series_id, origin, step`,
  oracle,
);
duck.close();
const tasks = (await readTasksTable(await verifyManifest(join(universe, 'manifest.json')), universe))!.filter(
  (t) => rw.has(t.series_id),
);
const report = (label: string, r: ScoringResults) => {
  const mse = (m: string) =>
    r.values.find(
      (v) =>
        v.model === m &&
        v.metric === 'tycheon.rmse' &&
        v.unit === r.values.find((x) => x.metric === 'tycheon.rmse')!.unit,
    )?.value;
  for (const row of r.verdicts.rows.filter((x) => x.unit === '*')) {
    const f = (d: typeof row.squared_error) =>
      d
        ? `DM ${d.statistic?.toFixed(3)} p_better ${d.p_model_better?.toExponential(3)} p_worse ${d.p_model_worse?.toExponential(3)}`
        : 'n/a';
    console.log(
      `${label} ${row.model.padEnd(15)} n=${row.n}  SE: ${f(row.squared_error)}  CRPS: ${f(row.crps)}  → ${row.verdict}  (rmse ${mse(row.model)?.toFixed(4)} vs rw ${mse('random_walk')?.toFixed(4)})`,
    );
  }
};
report('whole-history drift', await scoreSplit(join(split, 'manifest.json'), [baselines, oracle], { tasks }));
const tail = await scoreSplit(join(split, 'manifest.json'), [oracle], {
  tasks,
  loadSplit: async (m, d) => {
    const s = await readSplitTables(m, d);
    for (const o of s.origins) {
      delete o.history_first;
      delete o.history_first_back;
    }
    return s;
  },
});
report('tail drift (260 steps)', tail);
lap('done');
