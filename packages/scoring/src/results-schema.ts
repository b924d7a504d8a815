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
    refit_every: z
      .number()
      .int()
      .positive()
      .describe(
        'ARIMA and GARCH re-estimate their parameters every K origins of a series (re-filtered between)',
      ),
    cost_diagnostic: z
      .object({
        label: z.literal('diagnostic, not a trading system'),
        half_spread: z
          .number()
          .min(0)
          .describe('half the quoted spread, a fraction of the position (5e-4 = 5 bp)'),
        slippage: z.number().min(0).describe('slippage per unit traded'),
        fee: z.number().min(0).describe('fee per unit traded'),
      })
      .strict()
      .describe(
        'Tycheon cost-aware diagnostic: position sign(median forecast) for one horizon (the horizon end H), paying half spread + slippage + fee on turnover',
      ),
    fintsb_compat: z
      .enum(['paper', 'code'])
      .describe(
        "paper: FinTSB's text (docs/glossary.md: FinTSB); code: its published code's conventions ((1−c)² on the mean return, MDD from NAV₁, ICIR with ddof 0, IR as its report prints it, the IC), as fintsb.code.* cells",
      ),
    tycheon_space: z
      .literal('horizon_end_log_return')
      .describe(
        'ln(ŷ_{o+H}/y_o) vs ln(y_{o+H}/y_o); series with a value ≤ 0 in (ŷ_{o+H} − y_o)/|y_o| vs (y_{o+H} − y_o)/|y_o| (warning TYCHEON_SCALED_CHANGE)',
      ),
    intervals: z.array(z.number()).describe('central interval levels for coverage/width'),
    window: z
      .enum(['T1', 'T2', 'T3'])
      .optional()
      .describe(
        "asof score --window: only this knowledge window's origins are scored (the baselines are still fitted on every origin, so the values equal that window's section of a score of all origins); absent: all origins, with a section per window",
      ),
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
    crps_kind: z
      .enum(['point', 'samples', 'quantiles', 'gaussian'])
      .describe(
        "the model's CRPS kind; the random walk's is always paired to it (point and samples: its Gaussian)",
      ),
    crps_approximate: z.boolean().describe('quantile-grid CRPS (flagged *); never mixed with exact values'),
    verdict: z.enum(['beats', 'indistinguishable', 'worse']).nullable(),
    note: z.string().optional(),
    partial: z
      .literal(true)
      .optional()
      .describe("a partial model's test: its covered origins vs the random walk on the same origins"),
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
    partial: z
      .literal(true)
      .optional()
      .describe(
        'the model covers only part of this unit: the value is on its own points, compared with the baselines on the same points (same_points) and never ranked against values on other points',
      ),
  })
  .strict();
export type MetricValue = z.infer<typeof MetricValue>;

export const RankBlock = z
  .object({
    family: z
      .enum(['finverse', 'fintsb', 'tycheon'])
      .describe('the metric family whose cells the block ranks (every rank block today: finverse)'),
    ranked_by: z.string().describe('the metric the positions order by, and how it is made from the cells'),
    metrics: z.array(z.string()).describe("the family's metrics whose (unit, metric) cells were ranked"),
    points: z
      .object({
        origins: z.number().int().describe('(series, origin) paths every ranked model forecasts'),
        points: z.number().int().describe('(series, origin, step) points of those paths'),
        share: z.number().describe("points / the points of the block's units in the task set"),
      })
      .strict()
      .describe(
        "the shared points every ranked model is ranked on (comparison.ranks); for a same_points block, the partial model's points",
      ),
    not_ranked: z
      .array(z.object({ model: z.string(), reason: z.string() }).strict())
      .describe('models scored on these units but left out of the block, and why'),
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

export const Coverage = z
  .object({
    series: z.number().int().describe('scored series with at least one covered origin'),
    origins: z.number().int().describe('(series, origin) paths forecast, each with every step 1…H'),
    points: z.number().int().describe('(series, origin, step) points forecast'),
    share: z.number().describe('points / the task set points (comparison.task_set)'),
    units: z.number().int().describe('units with a covered origin'),
    full_units: z.number().int().describe('units whose every origin of every scored series is covered'),
  })
  .strict();
export type Coverage = z.infer<typeof Coverage>;

const BaselineWin = z
  .object({
    unit: z.string(),
    metric: z.string(),
    leaders: z.array(z.string()).describe('baselines ranked first (ties included)'),
    value: z.number(),
    best_submitted: z.string().nullable(),
    best_submitted_value: Num,
  })
  .strict();

/** A value over every scored series' origins stacked (Tycheon's pooled results). */
export const PooledValue = z
  .object({
    model: z.string(),
    metric: z.string().describe("'tycheon.ic', 'tycheon.rank_ic', 'tycheon.cost_net_return', …"),
    value: Num.describe('null: undefined (a constant forecast has no IC; no position, no hit rate)'),
    n: z.number().int().describe('origins stacked (positions, for the hit rate)'),
    partial: z
      .literal(true)
      .optional()
      .describe("a partial model's value on its own origins (the baselines' on them: same_points)"),
  })
  .strict();
export type PooledValue = z.infer<typeof PooledValue>;

/** What `asof run` recorded about a model it ran (packages/runner; docs/model-protocol.md). */
export const RunRecord = z
  .object({
    model: z.string().describe('the --name the forecasts carry'),
    protocol_version: z.number().int(),
    command: z.array(z.string()).describe('the model command, word by word (started without a shell)'),
    files: z
      .array(z.object({ path: z.string(), sha256: Sha256, bytes: z.number().int() }).strict())
      .describe('the files the command names that exist (its program too), hashed when the run started'),
    split_dataset_id: Sha256,
    runner: z.object({ name: z.string(), version: z.string() }).strict(),
    model_reported: z
      .object({ name: z.string().nullable(), version: z.string().nullable() })
      .strict()
      .describe('the name and version the model gave in its hello'),
    forecast_kind: z.enum(['point', 'quantiles', 'samples']),
    fit: z
      .object({ series: z.number().int(), rows: z.number().int() })
      .strict()
      .nullable()
      .describe('the training snapshot sent; null when the model declined it'),
    guard: z
      .object({ requests: z.number().int(), rows: z.number().int() })
      .strict()
      .describe('look-ahead guard checks: historyAt requests (one per pair) and rows checked before serving'),
    pairs: z
      .object({ asked: z.number().int(), forecast: z.number().int(), skipped: z.number().int() })
      .strict()
      .describe('(series, origin) pairs sent, answered with a path, and skipped by the model'),
    batches: z.number().int(),
    runtime: z
      .object({
        started_at: z.string(),
        seconds: z.number().describe('wall time of the run'),
        model_seconds: z.number().describe('of which the runner waited for the model'),
        node: z.string(),
        platform: z.string(),
      })
      .strict(),
    sandbox: z
      .object({
        kind: z.enum(['bubblewrap', 'none']),
        detail: z.string().describe("bubblewrap's version, or why the model ran unsandboxed"),
        hidden: z
          .array(z.string())
          .describe('the asof outputs hidden from the model (split, universe, exports)'),
        network: z.boolean().describe('whether the model could reach the network'),
      })
      .strict()
      .optional()
      .describe('how the model process was confined (absent in runs before issue 52)'),
  })
  .strict();
export type RunRecord = z.infer<typeof RunRecord>;

const ModelEntry = z
  .object({
    model: z.string(),
    baseline: z.boolean(),
    crps_kind: z
      .enum(['point', 'samples', 'quantiles', 'gaussian'])
      .describe(
        "point: a point mass (CRPS = absolute error); samples: fair estimator; quantiles: trapezoid pinball (flagged *); gaussian: the random walk's N(0, σ̂²h) in closed form",
      ),
    coverage: Coverage,
  })
  .strict();

const OriginCounts = z
  .object({
    series: z.number().int(),
    origins: z.number().int(),
    points: z.number().int(),
    max_horizon: z.number().int(),
  })
  .strict();

const SamePoints = z
  .array(
    z
      .object({
        model: z.string().describe('a partial model (its own values are in values)'),
        values: z.array(MetricValue).describe("the baselines' values on the model's points"),
        pooled: z.array(PooledValue).describe("the baselines' pooled values on the model's points"),
        ranks: RankBlock.describe("the model and the baselines ranked on the model's points"),
        baselines_win: z.array(BaselineWin).describe("headline cells a baseline leads on the model's points"),
      })
      .strict(),
  )
  .describe('each partial model against the baselines on exactly its points');

const Verdicts = z
  .object({
    status: z.enum(['ok', 'refused']),
    reason: z.string().optional(),
    rows: z.array(VerdictRow),
  })
  .strict();

const Ranks = z
  .object({
    overall: RankBlock,
    by_scope: z.record(z.string(), RankBlock),
    by_category: z.record(z.string(), RankBlock),
    by_frequency: z.record(z.string(), RankBlock),
  })
  .strict();

/** Where a fitted baseline (ARIMA, GARCH) was fitted, over every origin of the scored series. */
export const BaselineFit = z
  .object({
    model: z.string(),
    origins: z
      .number()
      .int()
      .describe('origins of the scored series (every origin the baseline was asked for)'),
    fitted: z.number().int().describe('origins forecast by the fitted model itself'),
    fallback: z
      .number()
      .int()
      .describe(
        "origins where the model could not be fitted and its documented fallback was used (GARCH: a constant variance, the window's mean squared return; ARIMA: ARIMA(0,1,0))",
      ),
    reasons: z
      .record(z.string(), z.number().int())
      .describe(
        'fallback origins by reason: short_window (fewer returns in the window than the fit needs), fit_failed (the ML fit failed), no_variance (no finite positive variance forecast), no_suitable_model (auto.arima found none), forecast_overflow (the forecast left the float range)',
      ),
    no_path: z
      .number()
      .int()
      .describe('origins whose window holds fewer than two values: no model at all (a point mass at y_o)'),
    not_converged: z
      .number()
      .int()
      .describe(
        "fitted origins whose fit stopped at the optimiser's iteration limit (its parameters are used)",
      ),
    scored_on: z
      .enum(['fitted', 'all'])
      .describe(
        'fitted: the model is scored only on its fitted origins (a partial model: its coverage, same_points, verdicts on its origins); all: the fallback origins are scored as the model',
      ),
  })
  .strict();
export type BaselineFit = z.infer<typeof BaselineFit>;

/** One knowledge window scored on its own: every section of the results, on that window's origins only. */
export const WindowScores = z
  .object({
    window: z.enum(['T1', 'T2', 'T3']),
    origins: OriginCounts.describe("the window's origins (of every series in the split)"),
    task_set: z
      .object({ series: z.number().int(), origins: z.number().int(), points: z.number().int() })
      .strict()
      .describe("the scored series' origins and points in the window"),
    models: z
      .array(ModelEntry)
      .describe(
        "the models with an origin in the window; coverage is of the window's task set (a model covering every origin of the window is a full-coverage model there)",
      ),
    values: z.array(MetricValue),
    pooled: z.array(PooledValue),
    verdicts: Verdicts,
    ranks: Ranks,
    same_points: SamePoints,
    baselines_win: z.array(BaselineWin),
  })
  .strict();
export type WindowScores = z.infer<typeof WindowScores>;

/** T1 − T2 of one model's pooled horizon-end loss: what the model may have memorised, beside the baselines'. */
export const MemorisationGap = z
  .object({
    model: z.string(),
    baseline: z.boolean(),
    metric: z
      .enum(['squared_error', 'crps'])
      .describe(
        "the pooled mean of the model's DM loss (results.json losses) over its origins in each window",
      ),
    crps_kind: z.enum(['point', 'samples', 'quantiles', 'gaussian']),
    t1: Num,
    t2: Num,
    gap: Num.describe(
      't1 − t2: negative when the model did better on the origins whose answers it may have seen',
    ),
    n_t1: z.number().int().describe('origins pooled in T1'),
    n_t2: z.number().int().describe('origins pooled in T2'),
  })
  .strict();
export type MemorisationGap = z.infer<typeof MemorisationGap>;

/**
 * The per-origin losses behind every Diebold–Mariano test of the results (each unit, each window, pooled):
 * one entry per scored origin with a known horizon-end value, columns aligned by index.
 */
export const LossTable = z
  .object({
    rule: z.string().describe('how every verdict is recomputed from these columns'),
    origins: z
      .object({
        series_id: z.array(z.string()),
        origin: z.array(z.string()),
        unit: z.array(z.string()),
        window: z.array(z.enum(['T1', 'T2', 'T3']).nullable()),
        horizon: z.array(z.number().int()),
      })
      .strict(),
    models: z.array(
      z
        .object({
          model: z.string(),
          crps_kind: z.enum(['point', 'samples', 'quantiles', 'gaussian']),
          squared_error: z
            .array(Num)
            .describe('(r̂ − r)² in Tycheon space at the horizon end; null where the model gives no forecast'),
          crps: z.array(Num).describe("the model's CRPS of its kind; null where it gives no forecast"),
          random_walk_crps: z
            .array(Num)
            .describe("the random walk's CRPS paired with this model's kind (the DM test's other leg)"),
        })
        .strict(),
    ),
  })
  .strict();
export type LossTable = z.infer<typeof LossTable>;

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
    models: z.array(ModelEntry),
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
    comparison: z
      .object({
        task_set: z
          .object({ series: z.number().int(), origins: z.number().int(), points: z.number().int() })
          .strict()
          .describe('the scored series (those with tasks) and all their origins and points'),
        points: z.string().describe('which points each model is scored on'),
        ranks: z.string().describe('which models each rank block compares, on which cells'),
        verdicts: z.string().describe('which origins each DM verdict pools'),
        baselines_win: z.string().describe('which models baselines_win compares'),
        fitted_baselines: z.string().describe('where the fitted baselines are scored (baseline_fits)'),
      })
      .strict()
      .describe('the comparison sets, stated'),
    values: z.array(MetricValue),
    pooled: z
      .array(PooledValue)
      .describe(
        'Tycheon IC, RankIC and the cost-aware diagnostic over all scored origins stacked; per unit they are in values',
      ),
    verdicts: Verdicts,
    ranks: Ranks,
    same_points: SamePoints,
    baselines_win: z.array(BaselineWin),
    baseline_fits: z
      .array(BaselineFit)
      .default([])
      .describe(
        "the fitted baselines' fits over the split's scored origins: where each was fitted, fell back (and why) or had no path",
      ),
    windows: z
      .array(WindowScores)
      .default([])
      .describe(
        'each knowledge window present (T1, T2, T3: the split labels its origins with --model-cutoff and --run-date) scored on its own origins, every section as above; empty when the split has no windows or when config.window restricts the whole run to one',
      ),
    memorisation_gap: z
      .array(MemorisationGap)
      .default([])
      .describe(
        'per model, T1 − T2 of its pooled horizon-end losses (the memorisation gap); empty unless both T1 and T2 are scored. The baselines cannot have memorised anything: their gaps show how much the two periods differ by themselves',
      ),
    losses: LossTable.optional().describe(
      'the per-origin losses behind every Diebold–Mariano verdict (absent in results written before they were kept)',
    ),
    runs: z
      .array(RunRecord)
      .optional()
      .describe(
        'for models run by asof run: the run record from the forecasts file (guard checks, command, hashes)',
      ),
    dataset_warnings: z
      .array(z.object({ code: z.string(), message: z.string(), count: z.number().int().optional() }).strict())
      .default([])
      .describe(
        "the warnings of the data scored: the split's manifest warnings, which carry its universe's (SURVIVORSHIP, SYNTHETIC, RULE_BASED_AVAILABLE_AT…): every result on that data is read with them",
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
