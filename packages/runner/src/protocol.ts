import { BASELINE_QUANTILE_LEVELS } from '@asof/baselines';
import { z } from 'zod';

/** The model protocol's version (docs/model-protocol.md). A change that an existing model could notice bumps it. */
export const PROTOCOL_VERSION = 1;
/** The quantile levels a model may emit (any ascending subset): 0.05, 0.10, …, 0.95. */
export const QUANTILE_LEVELS: readonly number[] = BASELINE_QUANTILE_LEVELS;
/** At most this many sample paths per (series, origin): each is a column of the forecasts file. */
export const MAX_SAMPLES = 200;

const Iso = z
  .string()
  .describe('ISO-8601 instant in UTC with microseconds, e.g. 2020-01-01T04:59:59.999999Z');
const Frequency = z.string().describe('D, BD, W, M, Q or A');

/** Rows of one series, column by column (every array has the same length, oldest first). */
const Rows = z
  .object({
    labels: z
      .array(z.string())
      .describe("each row's period in the series' own terms: 2019-12, 2019Q4, FY2019, 2020-03-04"),
    timestamps: z.array(Iso).describe('the instant each row is about (the end of its period)'),
    available_at: z.array(Iso).describe('the first instant the row was public'),
    values: z.array(z.number()),
  })
  .strict();

const PredictInputs = Rows.extend({
  back: z
    .array(z.number().int().nonnegative())
    .describe(
      "grid steps from each row's period to the origin's own period (0: the origin's period; a series released late has no row with back 0). Target step k is k grid steps after the origin",
    ),
}).strict();

export const RunnerHello = z
  .object({
    type: z.literal('hello'),
    protocol: z.literal(PROTOCOL_VERSION),
    runner: z.object({ name: z.string(), version: z.string() }).strict(),
    split: z
      .object({
        dataset_id: z.string(),
        parent_dataset_id: z.string().nullable(),
        layout: z.string(),
        origins_policy: z.string().nullable(),
        eval_start: z.string(),
        embargo: z.string(),
        train_cutoff: Iso.describe('eval_start − embargo: every fit row was public before it'),
      })
      .strict(),
    frequencies: z.array(Frequency).describe('the frequencies of the evaluation series'),
    horizons: z.record(z.string(), z.number().int().positive()).describe('H per frequency'),
    lookbacks: z.record(z.string(), z.number().int().positive()).describe('input steps per frequency'),
    accepts: z
      .object({
        point: z
          .literal(true)
          .describe('every path has a point forecast (the median for a probabilistic model)'),
        quantiles: z.array(z.number()).describe('quantile levels a model may emit (any ascending subset)'),
        max_samples: z.number().int().positive(),
      })
      .strict(),
    counts: z
      .object({
        train_series: z.number().int(),
        train_rows: z.number().int(),
        eval_series: z.number().int(),
        origins: z.number().int().describe('distinct origin instants'),
        pairs: z.number().int().describe('(series, origin) pairs to forecast'),
      })
      .strict(),
  })
  .strict()
  .describe('runner → model, first message');

export const FitStart = z
  .object({
    type: z.literal('fit_start'),
    train_cutoff: Iso,
    series: z.number().int(),
    rows: z.number().int(),
  })
  .strict()
  .describe('runner → model: the training snapshot follows, one fit message per series');

export const FitSeries = z
  .object({
    type: z.literal('fit'),
    series_id: z.string(),
    frequency: Frequency,
    unit: z.string().nullable().describe('the FinVerse unit (detail category) of the series'),
    eval_target: z.boolean().describe('the series has origins to forecast'),
    history: Rows.describe('the as-of snapshot at the train cutoff: per timestamp the vintage current then'),
  })
  .strict()
  .describe('runner → model: the training history of one series');

export const FitEnd = z
  .object({ type: z.literal('fit_end'), series: z.number().int(), rows: z.number().int() })
  .strict()
  .describe('runner → model: the snapshot is complete; answer ready');

export const PredictTask = z
  .object({
    series_id: z.string(),
    frequency: Frequency,
    origin_label: z.string().describe("the origin's own period (2019-12, 2019Q4, FY2019, 2020-03-04)"),
    horizon: z.number().int().positive().describe('H: answer steps 1…H'),
    lookback: z.number().int().positive().nullable(),
    inputs: PredictInputs.describe('exactly what the split serves at the origin, each row public by then'),
  })
  .strict();

export const Predict = z
  .object({
    type: z.literal('predict'),
    batch: z.number().int().positive().describe('1, 2, … in order; answer each before the next is sent'),
    origin: Iso.describe('the instant every task of the batch is forecast at'),
    tasks: z.array(PredictTask),
  })
  .strict()
  .describe('runner → model: a batch of series of one origin, batches in chronological order');

export const Bye = z
  .object({ type: z.literal('bye'), batches: z.number().int(), pairs: z.number().int() })
  .strict()
  .describe('runner → model: no more batches; exit with status 0');

export const RunnerMessage = z.discriminatedUnion('type', [
  RunnerHello,
  FitStart,
  FitSeries,
  FitEnd,
  Predict,
  Bye,
]);
export type RunnerHello = z.infer<typeof RunnerHello>;
export type FitSeries = z.infer<typeof FitSeries>;
export type PredictTask = z.infer<typeof PredictTask>;
export type Predict = z.infer<typeof Predict>;

export const ModelHello = z
  .object({
    type: z.literal('hello'),
    protocol: z.literal(PROTOCOL_VERSION, { error: `this runner speaks version ${PROTOCOL_VERSION}` }),
    name: z.string().optional().describe("the model's own name (recorded; the forecasts carry --name)"),
    version: z.string().optional(),
    fit: z.boolean().default(true).describe('false: skip the training snapshot (no fit messages)'),
    quantiles: z
      .array(z.number().gt(0).lt(1))
      .optional()
      .describe('the quantile levels every path carries, ascending, from hello.accepts.quantiles'),
    samples: z.number().int().positive().optional().describe('the number of sample paths every path carries'),
  })
  .strict()
  .describe('model → runner: the answer to hello');

export const Ready = z
  .object({ type: z.literal('ready') })
  .strict()
  .describe('model → runner: the answer to fit_end');

export const ForecastPath = z.union([
  z
    .object({
      series_id: z.string(),
      point: z.array(z.number()).describe('ŷ for steps 1…H'),
      quantiles: z
        .array(z.array(z.number()))
        .optional()
        .describe('one array of H values per declared level, in the declared order'),
      samples: z.array(z.array(z.number())).optional().describe('one array of H values per sample path'),
    })
    .strict(),
  z
    .object({
      series_id: z.string(),
      skip: z.literal(true).describe('no forecast for this pair (coverage < 100%)'),
    })
    .strict(),
]);

export const ForecastReply = z
  .object({
    type: z.literal('forecast'),
    batch: z.number().int().positive(),
    paths: z.array(ForecastPath).describe('one per task of the batch, any order'),
  })
  .strict()
  .describe('model → runner: the answer to predict');

export const ModelError = z
  .object({
    type: z.literal('error'),
    message: z.string(),
    series_id: z.string().optional(),
  })
  .strict()
  .describe('model → runner: the model gives up; the run fails with this message');

export const ModelMessage = z.discriminatedUnion('type', [ModelHello, Ready, ForecastReply, ModelError]);
export type ModelHello = z.infer<typeof ModelHello>;
export type ForecastReply = z.infer<typeof ForecastReply>;
export type ForecastPath = z.infer<typeof ForecastPath>;

/** JSON Schema of every protocol message (schemas/model-protocol.schema.json). */
export function modelProtocolJsonSchema(): Record<string, unknown> {
  const schema = z
    .object({
      runner_to_model: RunnerMessage,
      model_to_runner: ModelMessage,
    })
    .describe(
      `asof model protocol ${PROTOCOL_VERSION} (docs/model-protocol.md): newline-delimited JSON, one message per line. runner_to_model are the lines the runner writes to the model's stdin; model_to_runner the lines the model writes to its stdout`,
    );
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const props = json.properties as Record<string, unknown>;
  return {
    $id: 'https://asof.dev/schemas/model-protocol.schema.json',
    $schema: json.$schema,
    description: json.description,
    $defs: { runner_to_model: props.runner_to_model, model_to_runner: props.model_to_runner },
    anyOf: [{ $ref: '#/$defs/runner_to_model' }, { $ref: '#/$defs/model_to_runner' }],
  };
}
