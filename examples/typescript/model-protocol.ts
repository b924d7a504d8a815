// The asof model protocol (docs/model-protocol.md) for a TypeScript model, self-contained: read one JSON
// message per stdin line, answer on stdout, log on stderr. Copy it next to your model.
import { createInterface } from 'node:readline';

/** Rows of one series, column by column, oldest first. */
export interface Rows {
  labels: string[];
  timestamps: string[];
  available_at: string[];
  values: number[];
}

export interface FitMessage {
  type: 'fit';
  series_id: string;
  frequency: string;
  unit: string | null;
  eval_target: boolean;
  history: Rows;
}

export interface PredictTask {
  series_id: string;
  frequency: string;
  origin_label: string;
  horizon: number;
  lookback: number | null;
  /** back[i]: grid steps from row i's period to the origin's own (0: the origin's period). */
  inputs: Rows & { back: number[] };
}

export type Path =
  | { series_id: string; point: number[]; quantiles?: number[][]; samples?: number[][] }
  | { series_id: string; skip: true };

export interface Model {
  name: string;
  /** Quantile levels every path carries (from 0.05, 0.10, …, 0.95), if any. */
  quantiles?: number[];
  /** Called once per series of the training snapshot; leave it out to skip the snapshot. */
  fit?: (message: FitMessage) => void;
  forecast: (task: PredictTask, origin: string) => Path;
}

/** Runs `model` over the protocol until the runner says bye. */
export async function serveModel(model: Model): Promise<void> {
  const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    const message = JSON.parse(line);
    switch (message.type) {
      case 'hello':
        send({
          type: 'hello',
          protocol: 1,
          name: model.name,
          fit: model.fit !== undefined,
          ...(model.quantiles ? { quantiles: model.quantiles } : {}),
        });
        break;
      case 'fit':
        model.fit?.(message);
        break;
      case 'fit_end':
        send({ type: 'ready' });
        break;
      case 'predict':
        send({
          type: 'forecast',
          batch: message.batch,
          paths: message.tasks.map((t: PredictTask) => model.forecast(t, message.origin)),
        });
        break;
      case 'bye':
        return;
    }
  }
}
