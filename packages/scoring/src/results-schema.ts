import { z } from 'zod';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case hex sha256');
/** JSON has no NaN: an undefined metric (too few origins, constant forecast, zero scale) is null. */
const Num = z.number().nullable();

export const ScoringConfig = z
  .object({
    alpha: z.number().gt(0).lt(1).describe('one-sided DM significance level for the verdict'),
    allow_overlap: z.boolean().describe('run DM on overlapping origins (HLN with h − 1 autocovariances)'),
    origins_policy: z
      .string()
      .nullable()
      .describe("the split's origins policy, null when the manifest has none"),
    origin_stride: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe(
        'steps between consecutive origins (portfolio holding, backtest annualisation); null: measured per unit',
      ),
    baselines: z.array(z.string()).describe('baselines scored; random_walk always'),
    tycheon_space: z
      .literal('horizon_end_log_return')
      .describe(
        'ln(ŷ_{o+H}/y_o) vs ln(y_{o+H}/y_o); series with a value ≤ 0 in (ŷ_{o+H} − y_o)/|y_o| vs (y_{o+H} − y_o)/|y_o| (warning TYCHEON_SCALED_CHANGE)',
      ),
    intervals: z.array(z.number()).describe('central interval levels for coverage/width'),
  })
  .strict();
export type ScoringConfig = z.infer<typeof ScoringConfig>;

const DmTest = z
  .object({
    statistic: Num,
    p_model_better: Num,
    p_model_worse: Num,
    mean_differential: Num,
    n: z.number().int(),
    horizon: z.number().int(),
  })
  .strict();

export const VerdictRow = z
  .object({
    model: z.string(),
    unit: z.string().describe("unit key, or '*' for all origins of all series pooled"),
    n: z.number().int().describe('origins pooled'),
    squared_error: DmTest.nullable(),
    crps: DmTest.nullable(),
    crps_kind: z.enum(['point', 'samples', 'quantiles']),
    crps_approximate: z.boolean().describe('quantile-grid CRPS (flagged *); never mixed with exact values'),
    verdict: z.enum(['beats', 'indistinguishable', 'worse']).nullable(),
    note: z.string().optional(),
  })
  .strict();
export type VerdictRow = z.infer<typeof VerdictRow>;

export const MetricValue = z
  .object({
    model: z.string(),
    unit: z.string(),
    family: z.enum(['finverse', 'fintsb', 'tycheon']),
    aspect: z.string(),
    metric: z.string().describe("e.g. 'HR(1m,1m)', 'MASE_ori', 'tycheon.crps'"),
    direction: z.enum(['higher', 'lower', 'nominal']),
    value: Num.describe('mean over the series of the unit (unit-level metrics: the unit value)'),
    series: z.number().int().describe('series contributing a finite value'),
  })
  .strict();
export type MetricValue = z.infer<typeof MetricValue>;

export const RankBlock = z
  .object({
    aspects: z.array(z.string()),
    cells_per_aspect: z.record(z.string(), z.number().int()),
    models: z.array(
      z
        .object({
          model: z.string(),
          aspect_k: z.record(z.string(), z.number()),
          aspect_rank: z.record(z.string(), z.number()),
          overall: z.number(),
          position: z.number().int(),
          missing_cells: z.number().int(),
        })
        .strict(),
    ),
  })
  .strict();
export type RankBlock = z.infer<typeof RankBlock>;

export const ScoringResults = z
  .object({
    results_version: z.literal(1),
    dataset_id: Sha256.nullable().describe("the scored split manifest's dataset_id"),
    parent_dataset_id: Sha256.nullable().describe("the split's parent (the universe build)"),
    scorer: z.object({ name: z.string(), version: z.string() }).strict(),
    config: ScoringConfig,
    config_sha256: Sha256.describe('sha256 of the canonical JSON of config'),
    forecasts: z.array(
      z
        .object({ path: z.string(), sha256: Sha256, bytes: z.number().int(), models: z.array(z.string()) })
        .strict(),
    ),
    models: z.array(
      z
        .object({
          model: z.string(),
          baseline: z.boolean(),
          crps_kind: z.enum(['point', 'samples', 'quantiles']),
        })
        .strict(),
    ),
    origins: z
      .object({
        series: z.number().int(),
        origins: z.number().int(),
        points: z.number().int(),
        max_horizon: z.number().int(),
        overlapping: z.boolean(),
        overlap_reason: z.string(),
      })
      .strict(),
    values: z.array(MetricValue),
    verdicts: z
      .object({
        status: z.enum(['ok', 'refused']),
        reason: z.string().optional(),
        rows: z.array(VerdictRow),
      })
      .strict(),
    ranks: z
      .object({
        overall: RankBlock,
        by_scope: z.record(z.string(), RankBlock),
        by_category: z.record(z.string(), RankBlock),
        by_frequency: z.record(z.string(), RankBlock),
      })
      .strict(),
    baselines_win: z.array(
      z
        .object({
          unit: z.string(),
          metric: z.string(),
          leaders: z.array(z.string()).describe('baselines ranked first (ties included)'),
          value: z.number(),
          best_submitted: z.string().nullable(),
          best_submitted_value: Num,
        })
        .strict(),
    ),
    warnings: z.array(
      z.object({ code: z.string(), message: z.string(), count: z.number().int().optional() }).strict(),
    ),
  })
  .strict();
export type ScoringResults = z.infer<typeof ScoringResults>;

/** JSON Schema of the results document (the lead writes it to schemas/results.schema.json). */
export function resultsJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://asof.dev/schemas/results.schema.json',
    ...z.toJSONSchema(ScoringResults, { io: 'input', unrepresentable: 'any' }),
  };
}
