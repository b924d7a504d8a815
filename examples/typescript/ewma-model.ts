// An exponentially weighted mean with a volatility estimate, emitting quantiles q0.05 … q0.95, through the
// asof model protocol — the TypeScript twin of examples/python/ewma_model.py (same numbers up to rounding
// of the normal quantiles):
//   asof run --manifest SPLIT/manifest.json --model "npx tsx examples/typescript/ewma-model.ts" --name ewma-ts --out out/ewma-ts.parquet
import { normalQuantile } from '@asof/stats';
import { type FitMessage, type PredictTask, serveModel } from './model-protocol.ts';

const ALPHA = 0.3;
const LEVELS = Array.from({ length: 19 }, (_, i) => Number(((i + 1) * 0.05).toFixed(2)));
const Z = LEVELS.map(normalQuantile);
const trainVar = new Map<string, { positive: boolean; variance: number }>();

function changeVariance(xs: number[]): number | null {
  const d = xs.slice(1).map((x, i) => x - xs[i]);
  if (d.length < 2) return null;
  const mean = d.reduce((s, x) => s + x, 0) / d.length;
  return d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length - 1);
}

function fit(m: FitMessage): void {
  const values = m.history.values;
  const positive = values.length > 0 && Math.min(...values) > 0;
  const variance = changeVariance(positive ? values.map(Math.log) : values);
  if (variance !== null) trainVar.set(m.series_id, { positive, variance });
}

function forecast(task: PredictTask) {
  const values = task.inputs.values;
  if (values.length === 0) return { series_id: task.series_id, skip: true as const };
  const positive = Math.min(...values) > 0;
  const xs = positive ? values.map(Math.log) : values;
  let level = xs[0];
  let ewVar: number | null = null;
  for (let i = 1; i < xs.length; i++) {
    const change = xs[i] - xs[i - 1];
    ewVar = ewVar === null ? change * change : (1 - ALPHA) * ewVar + ALPHA * change * change;
    level = (1 - ALPHA) * level + ALPHA * xs[i];
  }
  const trained = trainVar.get(task.series_id);
  const known = [trained && trained.positive === positive ? trained.variance : null, ewVar].filter(
    (v): v is number => v !== null,
  );
  const sigma = known.length ? Math.sqrt(known.reduce((s, v) => s + v, 0) / known.length) : 0;
  const lag = task.inputs.back.at(-1)!;
  const back = positive ? Math.exp : (x: number) => x;
  const steps = Array.from({ length: task.horizon }, (_, k) => k + 1);
  return {
    series_id: task.series_id,
    point: steps.map(() => back(level)),
    quantiles: Z.map((z) => steps.map((k) => back(level + z * sigma * Math.sqrt(k + lag)))),
  };
}

await serveModel({ name: 'ewma-ts', quantiles: LEVELS, fit, forecast });
