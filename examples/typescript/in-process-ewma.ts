// The EWMA point forecast in-process, without the protocol: a Forecaster run over the split's origins on a
// HistoryStore of the parent universe (every vintage), reading history only through OriginView.historyAt —
// the look-ahead guard (a read past the origin throws LookaheadError). Writes a forecasts CSV for asof score:
//   npx tsx examples/typescript/in-process-ewma.ts --universe out/default --split out/default-split --out out/ewma-in-process.csv
//   npx asof score --manifest out/default-split/manifest.json --forecasts out/ewma-in-process.csv --out out/ewma-in-process-score
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { microsToIso } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { openVerifiedManifest } from '@asof/manifest';
import { type Forecaster, type ForecastTask, HistoryStore, runForecaster } from '@asof/split';

const { values: args } = parseArgs({
  options: { universe: { type: 'string' }, split: { type: 'string' }, out: { type: 'string' } },
});
if (!args.universe || !args.split || !args.out) {
  console.error('usage: in-process-ewma.ts --universe UNIVERSE_DIR --split SPLIT_DIR --out FILE.csv');
  process.exit(2);
}
const ALPHA = 0.3;

// The split's origins, from the files its manifest lists (hashed first); the universe must be its parent.
const split = await openVerifiedManifest(join(args.split, 'manifest.json'));
const universeId = JSON.parse(readFileSync(join(args.universe, 'manifest.json'), 'utf8')).dataset_id;
if (universeId !== split.manifest.parent_dataset_id) {
  console.error(`${args.universe} is not the universe ${args.split} was split from`);
  process.exit(2);
}
const duck = await Duck.open({ threads: 2 });
const origins = await duck.all<{ series_id: string; o: bigint; h: number; l: number; i: number }>(
  `SELECT series_id, epoch_us(origin) AS o, horizon_steps AS h, lookback_steps AS l, origin_index AS i
   FROM read_parquet([${split.readPaths('origins').map(quoteLiteral).join(', ')}]) ORDER BY series_id, origin`,
);
duck.close();
split.close();
const tasks: ForecastTask[] = origins.map((r) => ({
  series_id: r.series_id,
  origin: Number(r.o),
  horizon_steps: r.h,
  lookback_steps: r.l,
  origin_index: r.i,
}));

// The forecaster sees only the view: history as of its origin, its last lookback steps.
const ewma: Forecaster = (task, view) => {
  const rows = view.historyAt(task.series_id, view.origin, task.lookback_steps);
  if (rows.length === 0) return [];
  const positive = rows.every((r) => r.value > 0);
  let level = positive ? Math.log(rows[0].value) : rows[0].value;
  for (const r of rows.slice(1))
    level = (1 - ALPHA) * level + ALPHA * (positive ? Math.log(r.value) : r.value);
  return Array(task.horizon_steps).fill(positive ? Math.exp(level) : level);
};

const store = await HistoryStore.fromUniverse(args.universe, [...new Set(tasks.map((t) => t.series_id))]);
const rows = runForecaster(store, tasks, ewma);
const lines = ['model,series_id,origin,step,value'];
for (const r of rows)
  lines.push(`ewma-in-process,${r.series_id},${microsToIso(r.origin)},${r.step},${r.value}`);
writeFileSync(args.out, `${lines.join('\n')}\n`);
console.error(
  `wrote ${rows.length} forecast rows for ${tasks.length} origins to ${args.out}; guard: ${store.guard.requests} historyAt requests, ${store.guard.rows} rows checked`,
);
