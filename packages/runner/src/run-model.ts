import { dirname, join, resolve } from 'node:path';
import { BASELINE_MODELS } from '@asof/baselines';
import { Duck } from '@asof/duck';
import { openVerifiedManifest, type VerifiedManifest } from '@asof/manifest';
import { faultPoint, writeOutputFile } from '@asof/output';
import { elapsedStamp, firstZodIssue, InputError, zodIssuePath, zodMessage } from '@asof/schema';
import type { RunRecord } from '@asof/scoring';
import type { GuardCounts } from '@asof/split';
import { checkForecastReply, type ForecastShape, modelErrorOf, parseReplyLine } from './check-reply.ts';
import { ForecastSink } from './forecast-sink.ts';
import { LabelCache } from './label-cache.ts';
import { ModelConversation } from './model-conversation.ts';
import { checkEnvAllow, modelEnvironment, modelLogScrubber } from './model-environment.ts';
import { ModelRunError } from './model-run-error.ts';
import { type ModelSandbox, modelSandbox, type SandboxMode } from './model-sandbox.ts';
import { openRunSplit, type RunSplit } from './open-run-split.ts';
import {
  MAX_SAMPLES,
  ModelHello,
  PROTOCOL_VERSION,
  QUANTILE_LEVELS,
  Ready,
  type RunnerHello,
} from './protocol.ts';
import { hashCommandFiles } from './run-record.ts';
import { type BatchLimits, type PredictBatch, predictBatches } from './serve-batches.ts';
import { splitCommandLine } from './split-command-line.ts';
import { trainingMessages } from './stream-training.ts';

export interface RunModelOptions {
  /** The split's manifest.json. */
  manifestPath: string;
  /** `--model`: the command line that starts the model (split into words, no shell). */
  command: string;
  /** `--name`: the model name the forecasts carry. */
  name: string;
  /** `--out`: the forecasts file (Parquet). */
  outPath: string;
  cwd: string;
  /** The longest the model may take for one answer (default 600 s). */
  timeoutSeconds?: number;
  /** Who runs the model (hello.runner, the run record). */
  runner: { name: string; version: string };
  /** The user's environment (default process.env); the model gets only its allowed part (model-environment.ts). */
  env?: NodeJS.ProcessEnv;
  /** `--env`: more variables (names, or prefixes ending in `*`) the model inherits besides MODEL_ENV_DEFAULT. */
  envAllow?: readonly string[];
  /** `--sandbox`: auto (default; bubblewrap where it works), on (required), off. */
  sandbox?: SandboxMode;
  /** `--hide`: more paths the sandbox hides from the model, besides the split and the asof outputs it finds. */
  hide?: readonly string[];
  /** `--max-line-mb` in bytes: the longest line the model may write (default 256 MiB). */
  maxLineBytes?: number;
  /** Progress lines, at most one every few seconds. */
  log?: (line: string) => void;
  /** Each line the model writes to stderr, scrubbed of asof's secrets. */
  modelLog?: (line: string) => void;
  limits?: BatchLimits;
  /** DuckDB memory_limit of the run's work database (default 2GB). */
  memoryLimit?: string;
  /**
   * Runs once the forecasts file is complete (`file`, its temp path) and before it replaces the output; a
   * throw leaves the output as it was (`asof run --score` scores here, so a score that refuses the
   * forecasts writes nothing).
   */
  beforeSwitch?: (written: { file: string; rows: number; record: RunRecord }) => Promise<void>;
}

export interface RunModelResult {
  path: string;
  record: RunRecord;
  /** Forecast rows written (one per step of each answered pair). */
  rows: number;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: names must not contain control characters
const PRINTABLE = /^[^\u0000-\u001f\u007f-\u009f]+$/;

function checkName(name: string): void {
  if (!name || !PRINTABLE.test(name)) {
    throw new InputError(
      'RUN_BAD_NAME',
      `--name ${JSON.stringify(name)}: a model name is non-empty printable text, e.g. --name ewma`,
      { context: { value: name } },
    );
  }
  if ((BASELINE_MODELS as readonly string[]).includes(name)) {
    throw new InputError(
      'RUN_BASELINE_NAME',
      `--name ${name} is a baseline the scorer computes itself (${BASELINE_MODELS.join(', ')}); name your model otherwise, e.g. --name my-${name}`,
      { context: { value: name } },
    );
  }
}

/**
 * `asof run`: starts the model command once and evaluates it on a split through the model protocol
 * (docs/model-protocol.md): hello, the training snapshot (fit), the predict batches in chronological order
 * — each task's inputs served through the split's look-ahead guard (HistoryStore / OriginView.historyAt)
 * — and bye. The forecasts file is written only when every batch was answered correctly and the model
 * exited with status 0; any failure stops the model and leaves the output as it was.
 */
export async function runModel(options: RunModelOptions): Promise<RunModelResult> {
  const argv = splitCommandLine(options.command);
  checkName(options.name);
  checkEnvAllow(options.envAllow ?? []);
  const env = options.env ?? process.env;
  const manifestPath = resolve(options.cwd, options.manifestPath);
  const files = hashCommandFiles(argv, options.cwd, env);
  const verified = await openVerifiedManifest(manifestPath, { label: options.manifestPath });
  try {
    // Before any work: --sandbox on without a sandbox, or a program that does not exist, is bad input.
    const sandbox = modelSandbox({
      mode: options.sandbox ?? 'auto',
      cwd: options.cwd,
      env,
      splitDir: dirname(manifestPath),
      hide: options.hide,
    });
    const startArgv = sandbox.wrap(argv);
    const written = await writeOutputFile(
      resolve(options.cwd, options.outPath),
      {
        command: 'asof run',
        writes: 'forecasts',
        cwd: options.cwd,
        // The model's own files are inputs too: a forecasts file never replaces the model's script.
        inputs: [manifestPath, dirname(manifestPath), ...files.map((f) => resolve(options.cwd, f.path))],
        protectedFiles: verified.files().map((f) => f.path),
        beforeSwitch: () => verified.recheck(),
      },
      ({ file, work }) =>
        verified.guard(async () => {
          const value = await execute(
            { ...options, manifestPath, env },
            { argv, files, sandbox, startArgv },
            verified,
            file,
            work,
          );
          await options.beforeSwitch?.({ file, ...value });
          return value;
        }),
    );
    return { ...written.value, path: written.path };
  } finally {
    verified.close();
  }
}

/** The shape every path must have, from the model's hello (quantile levels from the accepted grid, or samples). */
function shapeOf(hello: ModelHello, where: string): ForecastShape {
  const levels = hello.quantiles ?? [];
  for (let j = 0; j < levels.length; j++) {
    if (
      !QUANTILE_LEVELS.some((l) => Math.abs(l - levels[j]) < 1e-9) ||
      (j > 0 && !(levels[j] > levels[j - 1]))
    ) {
      throw new ModelRunError(
        'MODEL_BAD_HELLO',
        `${where}: quantiles ${JSON.stringify(levels)}: use ascending levels from ${QUANTILE_LEVELS.join(', ')}`,
        { context: { value: levels } },
      );
    }
  }
  const samples = hello.samples ?? 0;
  if (samples > MAX_SAMPLES || (samples && levels.length)) {
    throw new ModelRunError(
      'MODEL_BAD_HELLO',
      `${where}: ${samples > MAX_SAMPLES ? `samples ${samples}: at most ${MAX_SAMPLES}` : 'quantiles and samples together: a forecasts file carries one kind'}`,
      { context: { value: samples } },
    );
  }
  return { levels: levels.map((l) => QUANTILE_LEVELS.find((q) => Math.abs(q - l) < 1e-9)!), samples };
}

function runnerHello(split: RunSplit, runner: { name: string; version: string }): RunnerHello {
  return {
    type: 'hello',
    protocol: PROTOCOL_VERSION,
    runner,
    split: {
      dataset_id: split.dataset_id,
      parent_dataset_id: split.parent_dataset_id,
      layout: split.layout,
      origins_policy: split.origins_policy,
      eval_start: split.eval_start,
      embargo: split.embargo,
      train_cutoff: split.train_cutoff,
    },
    frequencies: Object.keys(split.horizons).sort(),
    horizons: split.horizons,
    lookbacks: split.lookbacks,
    accepts: { point: true, quantiles: [...QUANTILE_LEVELS], max_samples: MAX_SAMPLES },
    counts: {
      train_series: split.trainSeries,
      train_rows: split.trainRows,
      eval_series: split.evalSeries,
      origins: split.origins,
      pairs: split.pairs.length,
    },
  };
}

/** A batch named for messages: its number, origin and series (the first, and how many more). */
function batchWhere(model: string, b: PredictBatch): string {
  const first = b.pairs[0].series_id;
  const more = b.pairs.length > 1 ? ` and ${b.pairs.length - 1} more` : '';
  return `model ${model}, batch ${b.batch} (origin ${b.originIso}, series ${first}${more})`;
}

/** What the phases share: the conversation, the split, the label cache, the progress log. */
interface RunContext {
  talk: ModelConversation;
  duck: Duck;
  split: RunSplit;
  labels: LabelCache;
  name: string;
  manifestPath: string;
  log: (line: string) => void;
}

const fmt = (n: number) => n.toLocaleString('en-US');
/** The first few of a list, for a log line; the run record has them all. */
const listed = (items: readonly string[]) =>
  items.length > 4 ? `${items.slice(0, 4).join(', ')} and ${items.length - 4} more` : items.join(', ');

/** hello both ways: the model's answer, checked, and the shape of every path it declared. */
async function exchangeHello(
  c: RunContext,
  runner: RunModelOptions['runner'],
): Promise<{ hello: ModelHello; shape: ForecastShape }> {
  const where = `model ${c.name}, hello`;
  await c.talk.send(JSON.stringify(runnerHello(c.split, runner)), where);
  const value = parseReplyLine(await c.talk.receive(where), where);
  const err = modelErrorOf(value, where);
  if (err) throw err;
  const parsed = ModelHello.safeParse(value);
  if (!parsed.success) {
    // A ModelRunError is one line (see its class), so the fix follows the issues instead of a hint line.
    throw new ModelRunError(
      'MODEL_BAD_HELLO',
      `${zodMessage(where, parsed.error)}; answer {"type":"hello","protocol":${PROTOCOL_VERSION}}`,
      { context: { field: zodIssuePath(firstZodIssue(parsed.error).path) } },
    );
  }
  return { hello: parsed.data, shape: shapeOf(parsed.data, where) };
}

/** fit_start, one fit per series of the training snapshot, fit_end; the model answers ready. */
async function sendTrainingSnapshot(c: RunContext): Promise<NonNullable<RunRecord['fit']>> {
  const where = `model ${c.name}, fit`;
  const { split } = c;
  await c.talk.stream(
    JSON.stringify({
      type: 'fit_start',
      train_cutoff: split.train_cutoff,
      series: split.trainSeries,
      rows: split.trainRows,
    }),
    where,
  );
  let series = 0;
  let rows = 0;
  for await (const m of trainingMessages(c.duck, split, c.labels, c.manifestPath)) {
    await c.talk.stream(m.line, `${where} (series ${m.series_id})`);
    series++;
    rows += m.rows;
  }
  await c.talk.send(JSON.stringify({ type: 'fit_end', series, rows }), where);
  const ready = parseReplyLine(await c.talk.receive(`${where}, waiting for ready`), where);
  const err = modelErrorOf(ready, where);
  if (err) throw err;
  if (!Ready.safeParse(ready).success) {
    throw new ModelRunError(
      'MODEL_MALFORMED_REPLY',
      `${where}: expected {"type":"ready"} after fit_end, got ${JSON.stringify(ready).slice(0, 80)}`,
    );
  }
  return { series, rows };
}

/**
 * Every predict batch, one in flight: the next batch is prepared while the model answers this one and sent
 * only after the answer (a model never holds data published after an origin it has not answered yet).
 * `preparing` tracks the batch being prepared, so the caller can let it settle before closing the database.
 */
async function predictAll(
  c: RunContext,
  shape: ForecastShape,
  sink: ForecastSink,
  limits: BatchLimits | undefined,
  preparing: { current?: Promise<unknown> },
  at: () => string,
): Promise<{ guard: GuardCounts; pairs: RunRecord['pairs']; batches: number }> {
  const guard: GuardCounts = { requests: 0, rows: 0 };
  const total = c.split.pairs.length;
  const batches = predictBatches(c.duck, c.split, c.labels, guard, c.manifestPath, limits)[
    Symbol.asyncIterator
  ]();
  const pairs = { asked: 0, forecast: 0, skipped: 0 };
  let count = 0;
  let lastLog = performance.now();
  let next = await batches.next();
  while (!next.done) {
    const batch = next.value;
    const where = batchWhere(c.name, batch);
    await c.talk.send(batch.line, where);
    const following = batches.next();
    preparing.current = following.catch(() => {});
    const value = parseReplyLine(await c.talk.receive(where), where);
    const asked = { batch: batch.batch, originIso: batch.originIso, pairs: batch.pairs };
    for (const p of checkForecastReply(value, asked, shape, c.name)) {
      if (p) {
        sink.add(batch.originIso, p);
        pairs.forecast++;
      } else pairs.skipped++;
    }
    pairs.asked += batch.pairs.length;
    count = batch.batch;
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      c.log(
        `${at()} batch ${fmt(count)}, origin ${batch.originIso}: ${fmt(pairs.asked)}/${fmt(total)} pairs`,
      );
    }
    // Once, half-way through (kill tests stop a run here).
    if (pairs.asked - batch.pairs.length < total / 2 && pairs.asked >= total / 2)
      await faultPoint('run:midway');
    next = await following;
  }
  return { guard, pairs, batches: count };
}

/** The model's command: as given (recorded), its files, its sandbox and the argv that starts it in there. */
interface ModelCommand {
  argv: string[];
  files: RunRecord['files'];
  sandbox: ModelSandbox;
  startArgv: string[];
}

async function execute(
  options: RunModelOptions & { env: NodeJS.ProcessEnv },
  { argv, files, sandbox, startArgv }: ModelCommand,
  verified: VerifiedManifest,
  file: string,
  work: string,
): Promise<Omit<RunModelResult, 'path'>> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const log = options.log ?? (() => {});
  const at = elapsedStamp;
  const name = options.name;
  const duck = await Duck.open({
    threads: 2,
    memoryLimit: options.memoryLimit ?? '2GB',
    tempDirectory: join(work, 'spill'),
    path: join(work, 'run.duckdb'),
  });
  let talk: ModelConversation | undefined;
  const preparing: { current?: Promise<unknown> } = {};
  try {
    const split = await openRunSplit(duck, verified, options.manifestPath);
    log(
      `${at()} split ${split.dataset_id.slice(0, 12)}: ${fmt(split.pairs.length)} (series, origin) pairs over ${fmt(split.origins)} origins, ${fmt(split.trainRows)} training rows`,
    );
    log(
      sandbox.record.kind === 'bubblewrap'
        ? `${at()} model sandboxed (${sandbox.record.detail}): no network, ${sandbox.record.hidden.length} asof output(s) hidden (${listed(sandbox.record.hidden)})`
        : `${at()} the model runs unsandboxed (${sandbox.record.detail}): it can read the split's targets, the universe and the network; install bubblewrap to hide them (docs/model-protocol.md)`,
    );
    talk = await ModelConversation.start({
      argv: startArgv,
      wrapped: sandbox.record.kind === 'bubblewrap',
      cwd: options.cwd,
      env: modelEnvironment(options.env, options.envAllow),
      scrub: modelLogScrubber(options.env),
      maxLineBytes: options.maxLineBytes,
      timeoutMs: (options.timeoutSeconds ?? 600) * 1000,
      onStderr: options.modelLog,
    });
    const c: RunContext = {
      talk,
      duck,
      split,
      labels: new LabelCache(),
      name,
      manifestPath: options.manifestPath,
      log,
    };
    const { hello, shape } = await exchangeHello(c, options.runner);
    const sink = await ForecastSink.open(duck, name, shape);
    let fit: RunRecord['fit'] = null;
    if (hello.fit) {
      fit = await sendTrainingSnapshot(c);
      log(`${at()} fit: sent ${fmt(fit.series)} series, ${fmt(fit.rows)} rows; model ready`);
    }
    const predicted = await predictAll(c, shape, sink, options.limits, preparing, at);
    if (talk.hasUnaskedLines()) {
      throw new ModelRunError(
        'MODEL_UNASKED_LINE',
        `model ${name}: wrote a line after its last answer, which nobody asked for; write exactly one line per message (log to stderr)`,
      );
    }
    await talk.send(
      JSON.stringify({ type: 'bye', batches: predicted.batches, pairs: predicted.pairs.asked }),
      `model ${name}, bye`,
    );
    await talk.finish(`model ${name}, after bye`);
    const seconds = (performance.now() - started) / 1000;
    const record: RunRecord = {
      model: name,
      protocol_version: PROTOCOL_VERSION,
      command: argv,
      files,
      split_dataset_id: split.dataset_id,
      runner: options.runner,
      model_reported: { name: hello.name ?? null, version: hello.version ?? null },
      forecast_kind: shape.levels.length ? 'quantiles' : shape.samples ? 'samples' : 'point',
      fit,
      guard: { ...predicted.guard },
      pairs: predicted.pairs,
      batches: predicted.batches,
      runtime: {
        started_at: startedAt,
        seconds: Math.round(seconds * 1000) / 1000,
        model_seconds: Math.round(talk.modelMs) / 1000,
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      },
      sandbox: sandbox.record,
    };
    log(`${at()} ${fmt(predicted.batches)} batches answered; writing ${fmt(sink.rows)} forecast rows`);
    await sink.write(file, { run: record });
    return { record, rows: sink.rows };
  } finally {
    await talk?.dispose();
    await preparing.current;
    duck.close();
  }
}
