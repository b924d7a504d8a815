// Seasonal naive on the series' grid through the asof model protocol — the TypeScript twin of
// examples/python/seasonal_model.py:
//   asof run --manifest SPLIT/manifest.json --model "npx tsx examples/typescript/seasonal-model.ts" --name seasonal-ts --out out/seasonal-ts.parquet
import { type PredictTask, serveModel } from './model-protocol.ts';

const SEASON: Record<string, number> = { BD: 5, D: 7, W: 52, M: 12, Q: 4, A: 1 };

function forecast(task: PredictTask) {
  const { back, values } = task.inputs;
  if (values.length === 0) return { series_id: task.series_id, skip: true as const };
  const byBack = new Map(back.map((b, i) => [b, values[i]]));
  const last = values[values.length - 1];
  const oldest = Math.max(...back);
  const m = SEASON[task.frequency] ?? 1;
  const point: number[] = [];
  for (let k = 1; k <= task.horizon; k++) {
    // The step k − m⌈k/m⌉ from the origin, then one, two … seasons earlier while it is not public.
    let value: number | undefined;
    for (let b = m * Math.ceil(k / m) - k; m > 1 && b <= oldest && value === undefined; b += m)
      value = byBack.get(b);
    point.push(value ?? last);
  }
  return { series_id: task.series_id, point };
}

await serveModel({ name: 'seasonal-ts', forecast });
