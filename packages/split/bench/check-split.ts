// Checks issue 8's acceptance properties on a split folder (any size; reads Parquet with DuckDB):
//   npx tsx packages/split/bench/check-split.ts out/default-split
import { join, resolve } from 'node:path';
import { isoToMicros, labelWindow } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { verifyManifest } from '@asof/manifest';

const dir = resolve(process.argv[2] ?? 'out/default-split');
const manifest = await verifyManifest(join(dir, 'manifest.json'));
const config = manifest.config as Record<string, string | null>;
const f = (name: string) => `read_parquet(${quoteLiteral(join(dir, name))})`;
const duck = await Duck.open({ threads: 2 });
const n = async (sql: string) => Number((await duck.one<{ n: bigint }>(sql)).n);
const results: [string, boolean, string][] = [];
const check = (name: string, ok: boolean, detail: string) => results.push([name, ok, detail]);

const maxTrain = await duck.one<{ m: string }>(
  `SELECT iso_instant(max(available_at)) AS m FROM ${f('train/observations.parquet')}`,
);
check(
  'max(train available_at) < train cutoff',
  maxTrain.m < String(config.train_cutoff),
  `${maxTrain.m} < ${config.train_cutoff}`,
);
if (config.layout === 'compact') {
  const bad = await n(`SELECT count(*) AS n FROM ${f('inputs.parquet')} WHERE superseded_at <= available_at`);
  check('compact input rows well formed', bad === 0, `${bad} bad rows`);
} else {
  const bad = await n(`SELECT count(*) AS n FROM ${f('inputs.parquet')} WHERE available_at > origin`);
  const all = await n(`SELECT count(*) AS n FROM ${f('inputs.parquet')}`);
  check('every inputs row has available_at <= its origin', bad === 0, `${bad} of ${all} rows violate`);
}
if (config.origins_policy === 'non_overlapping') {
  const short = await n(
    `SELECT count(*) AS n FROM (SELECT horizon_steps AS h, origin_index - lag(origin_index) OVER (PARTITION BY series_id ORDER BY origin) AS gap
     FROM ${f('origins.parquet')}) WHERE gap < h`,
  );
  check('non_overlapping origins at least H steps apart', short === 0, `${short} closer pairs`);
}
if (config.model_cutoff) {
  const c = isoToMicros(String(config.model_cutoff));
  const r = isoToMicros(String(config.run_date));
  const rows = await duck.all<{ o: bigint; k: bigint | null; w: string }>(
    `SELECT epoch_us(origin) AS o, epoch_us(target_known_at) AS k, "window" AS w FROM ${f('origins.parquet')}`,
  );
  const wrong = rows.filter((x) => labelWindow(Number(x.o), x.k === null ? null : Number(x.k), c, r) !== x.w);
  const counts: Record<string, number> = {};
  for (const x of rows) counts[x.w] = (counts[x.w] ?? 0) + 1;
  check(
    'every origin exactly one of T1/T2/T3, agreeing with the definitions',
    wrong.length === 0,
    `${rows.length} origins ${JSON.stringify(counts)}, ${wrong.length} wrong`,
  );
}
duck.close();
for (const [name, ok, detail] of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
process.exitCode = results.every((x) => x[1]) ? 0 : 1;
