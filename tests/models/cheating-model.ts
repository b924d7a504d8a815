// A cheating model for the runner canary (tests/run-canary.test.ts): it answers the protocol correctly but
// reads the answers from disk instead of the inputs it is served —
//   --targets SPLIT/targets.parquet   the split's targets of each (series, origin, step);
//   --universe DIR                    the universe's observations (latest vintage of each target period).
// The guard cannot see a file read; the canary must catch it (its forecasts for origins before the
// poisoning instant move when everything published after that instant is poisoned).
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { Duck, quoteLiteral } from '@asof/duck';

const { values: args } = parseArgs({
  options: { targets: { type: 'string' }, universe: { type: 'string' } },
});
const ISO = `'%Y-%m-%dT%H:%M:%S.%fZ'`;
const iso = (col: string) => `strftime(make_timestamp(epoch_us(${col})), ${ISO})`;
const duck = await Duck.open({ threads: 1 });
const answer = new Map<string, number>();
const grids = new Map<string, { ts: string[]; values: number[] }>();
if (args.targets) {
  for (const r of await duck.all<{ k: string; value: number }>(
    `SELECT series_id || '|' || ${iso('origin')} || '|' || step AS k, value FROM read_parquet(${quoteLiteral(args.targets)})`,
  ))
    answer.set(r.k, r.value);
} else if (args.universe) {
  const rows = await duck.all<{ series_id: string; ts: string; value: number | null }>(
    `SELECT series_id, ${iso('"timestamp"')} AS ts, arg_max(value, available_at) AS value
     FROM read_parquet(${quoteLiteral(`${args.universe}/observations/*/*.parquet`)}, hive_partitioning = false)
     GROUP BY series_id, "timestamp" ORDER BY series_id, "timestamp"`,
  );
  for (const r of rows) {
    let g = grids.get(r.series_id);
    if (!g) {
      g = { ts: [], values: [] };
      grids.set(r.series_id, g);
    }
    g.ts.push(r.ts);
    g.values.push(r.value ?? Number.NaN);
  }
}
duck.close();

function peek(seriesId: string, origin: string, step: number): number | undefined {
  if (args.targets) return answer.get(`${seriesId}|${origin}|${step}`);
  const g = grids.get(seriesId);
  const i = g ? g.ts.indexOf(origin) : -1;
  const v = i >= 0 ? g!.values[i + step] : undefined;
  return v === undefined || Number.isNaN(v) ? undefined : v;
}

const send = (m: unknown) => process.stdout.write(`${JSON.stringify(m)}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line);
  if (m.type === 'hello') send({ type: 'hello', protocol: 1, name: 'cheat', fit: false });
  else if (m.type === 'predict') {
    send({
      type: 'forecast',
      batch: m.batch,
      paths: m.tasks.map((t: { series_id: string; horizon: number; inputs: { values: number[] } }) => {
        const last = t.inputs.values.at(-1) ?? 1;
        return {
          series_id: t.series_id,
          point: Array.from({ length: t.horizon }, (_, k) => peek(t.series_id, m.origin, k + 1) ?? last),
        };
      }),
    });
  } else if (m.type === 'bye') break;
}
