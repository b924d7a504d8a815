import { dirname, join, resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { planOutput, runInterruptibly, writeOutputDir } from '@asof/output';
import { runModel, sandboxMode } from '@asof/runner';
import { AsofError, elapsedStamp, InputError } from '@asof/schema';
import {
  type RunRecord,
  type ScoredSplit,
  type ScoringResults,
  scoreSplit,
  writeResults,
} from '@asof/scoring';
import { type Io, shown } from './commands.ts';
import { formatTable } from './format-table.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { readForecastsFast } from './read-forecasts-duck.ts';
import { ScoreCacheStore, scoreCacheDir } from './score-cache.ts';

export const RUN_USAGE =
  'asof run --manifest SPLIT/manifest.json --model "CMD …" --name NAME --out FILE.parquet [--score DIR] [--timeout-s 600] [--env NAME …] [--sandbox auto|on|off] [--hide PATH …] [--max-line-mb 256] [--json]';

const HELP = `${RUN_USAGE}

Evaluates a model written in any language behind the split's look-ahead guard. The model command is
started once, without a shell, and spoken to over stdin/stdout in newline-delimited JSON
(docs/model-protocol.md, schemas/model-protocol.schema.json):
  hello    → the split, its frequencies, horizons and the forecast kinds accepted; the model answers
             hello (protocol 1, optional quantile levels or a sample count, fit true/false)
  fit      → the training snapshot (public before eval_start − embargo), one message per series; ready
  predict  → batches of series of one origin, in chronological order, each task with exactly the
             inputs the split serves at its origin (period label, timestamp, value, available_at, grid
             steps back), its horizon H and frequency; the model answers the paths 1…H
  bye      → the model exits with status 0
Every input row is served through HistoryStore.historyAt at its origin; the guard checks are counted and
recorded, with the protocol version, the command, the sha256 of the files it names and the run time, in
the forecasts file's footer (and in results.json when scored). A model error, a malformed reply, a reply
for a pair not asked, a missing step, NaN, a timeout or a crash stops the run: exit 1, one line naming
the origin and series, and nothing written.

  --manifest     the split's manifest.json (either layout)
  --model        the command that starts the model, e.g. "python3 examples/python/ewma_model.py"
  --name         the model name in the forecasts file and on the leaderboard
  --out          the forecasts file (Parquet; replaced only if asof wrote it)
  --score        also score it: DIR/results.json, DIR/leaderboard.md and DIR/manifest.json, as 'asof
                 score' writes them. The forecasts are scored before they replace --out: when the scorer
                 refuses them (every pair skipped, a value it cannot score), nothing is written
  --timeout-s    the longest the model may take for one answer (default 600)
  --max-line-mb  the longest line the model may write to stdout, in MiB (default 256); a longer line
                 stops the run at once (exit 1) without being held in memory
  --env          one more environment variable the model inherits (repeatable; NAME, or PREFIX* for a
                 prefix). By default the model gets only PATH, HOME, the locale, TMPDIR and the language
                 runtimes' variables (PYTHONPATH, VIRTUAL_ENV, CONDA_*, NODE_PATH, …), never asof's own
                 ASOF_* settings such as ASOF_FRED_API_KEY unless named here. Its stderr is relayed as
                 "model: …" with asof's secrets redacted (any letter case, URL-encoded forms too).
  --sandbox      auto (default): where bubblewrap (Debian: apt-get install bubblewrap) works, the model
                 runs with no network, a read-only file system, and the split folder and every asof output
                 near it or the working folder (the universe, exports such as targets.csv, scores) hidden;
                 elsewhere it runs unsandboxed and asof says so. on: refuse to run without the sandbox.
                 off: never sandbox. Recorded in the run record (results.json runs[].sandbox)
  --hide         one more file or folder the sandbox hides from the model (repeatable)
  --json         print a JSON summary instead of text
`;

function positiveSeconds(text: string | undefined): number {
  if (text === undefined) return 600;
  const n = Number(text);
  if (!(Number.isFinite(n) && n > 0)) {
    throw new InputError(
      'USAGE',
      `--timeout-s ${text}: expected a number of seconds > 0, e.g. --timeout-s 600`,
    );
  }
  return n;
}

function maxLineMb(text: string | undefined): number {
  if (text === undefined) return 256;
  const n = Number(text);
  if (!(Number.isFinite(n) && n > 0 && n <= 4096)) {
    throw new InputError(
      'USAGE',
      `--max-line-mb ${text}: expected a number of MiB > 0 and at most 4096, e.g. --max-line-mb 512`,
    );
  }
  return n;
}

/** `asof run`: a model command through the model protocol, forecasts written, optionally scored. */
export async function runCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      model: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
      score: { type: 'string' },
      'timeout-s': { type: 'string' },
      env: { type: 'string', multiple: true },
      'max-line-mb': { type: 'string' },
      sandbox: { type: 'string' },
      hide: { type: 'string', multiple: true },
      json: { type: 'boolean' },
    },
    RUN_USAGE,
  );
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length > 0) {
    throw new InputError(
      'USAGE',
      `unexpected argument ${positionals[0]} (quote the whole model command: --model "python3 model.py --flag")\n  usage: ${RUN_USAGE}`,
    );
  }
  for (const flag of ['manifest', 'model', 'name', 'out'] as const) {
    if (typeof values[flag] !== 'string')
      throw new InputError('USAGE', `expected --${flag}\n  usage: ${RUN_USAGE}`);
  }
  const outText = values.out as string;
  if (!/\.parquet$/i.test(outText)) {
    throw new InputError(
      'USAGE',
      `--out ${outText}: forecasts are written as Parquet; name the file *.parquet, e.g. out/ewma.parquet`,
    );
  }
  const timeoutSeconds = positiveSeconds(values['timeout-s'] as string | undefined);
  const manifestPath = resolve(io.cwd, values.manifest as string);
  const outPath = resolve(io.cwd, outText);
  const scoreDir = typeof values.score === 'string' ? resolve(io.cwd, values.score) : undefined;
  const scoreOptions = {
    command: 'asof run',
    flag: '--score',
    writes: 'scores' as const,
    inputs: [manifestPath, dirname(manifestPath), outPath],
  };
  // Checked before the model starts, so a long run does not end on an output asof may not replace.
  if (scoreDir) planOutput(scoreDir, 'dir', scoreOptions, io.cwd);
  const scoreLog = (line: string) => io.err(`asof run: score: ${elapsedStamp()} ${line}\n`);
  // The scorer's baselines, as `asof score` keeps them (docs/decisions/0054): one fit per split.
  const store = scoreDir ? new ScoreCacheStore(scoreCacheDir(), scoreOptions.inputs, scoreLog) : undefined;
  if (store?.disabledBecause) scoreLog(store.disabledBecause);
  const git = scoreDir ? gitState(io.cwd) : undefined;
  let scoring: { results: ScoringResults; split: ScoredSplit } | undefined;
  const run = await runModel({
    manifestPath: values.manifest as string,
    command: values.model as string,
    name: values.name as string,
    outPath: outText,
    cwd: io.cwd,
    timeoutSeconds,
    maxLineBytes: maxLineMb(values['max-line-mb'] as string | undefined) * 1024 * 1024,
    sandbox: sandboxMode(values.sandbox as string | undefined),
    hide: (values.hide as string[] | undefined) ?? [],
    envAllow: (values.env as string[] | undefined) ?? [],
    runner: { name: 'asof', version: ASOF_VERSION },
    log: (line) => io.err(`asof run: ${line}\n`),
    modelLog: (line) => io.err(`model: ${line}\n`),
    // With --score the forecasts are scored before they replace --out (issue 52, audit 8.6d, 8.6f, 8.7f): a
    // score that refuses them (no rows, a value it cannot score) leaves --out and --score as they were.
    beforeSwitch: scoreDir
      ? async ({ file, rows, record }) => {
          scoring = await scoreBeforeSwitch(file, outPath, rows, record, {
            manifestPath,
            log: scoreLog,
            store: store?.disabledBecause ? undefined : store,
          });
        }
      : undefined,
  });
  let scored: ScoringResults | undefined;
  let scorePath: string | undefined;
  if (scoreDir && scoring) {
    const { results, split } = scoring;
    // Scored at the temp path; the file is the same bytes at --out now.
    results.forecasts[0].path = run.path;
    results.runs = [run.record];
    const { commit, dirty } = await git!;
    const written = await writeOutputDir(scoreDir, scoreOptions, async ({ dir }) => {
      await writeResults(dir, results, {
        split,
        createdBy: { asof_version: ASOF_VERSION, git_commit: commit, git_dirty: dirty },
      });
      return results;
    });
    scored = written.value;
    scorePath = written.path;
  }
  const r = run.record;
  if (values.json) {
    io.out(
      `${JSON.stringify({
        forecasts: run.path,
        rows: run.rows,
        run: r,
        ...(scored && scorePath
          ? {
              results: join(scorePath, 'results.json'),
              leaderboard: join(scorePath, 'leaderboard.md'),
              overall: scored.ranks.overall.models.map((m) => ({ model: m.model, position: m.position })),
            }
          : {}),
      })}\n`,
    );
  } else {
    io.out(summaryText(r, run.path, run.rows, io));
    if (scored && scorePath) io.out(scoreText(scored, r.model, scorePath, io));
  }
  nextHint(
    io,
    scorePath
      ? `cat ${shown(io, join(scorePath, 'leaderboard.md'))}   (or: asof report --manifest ${shown(io, manifestPath)} --results ${shown(io, join(scorePath, 'results.json'))} --out ${shown(io, scorePath)}.html)`
      : `asof score --manifest ${shown(io, manifestPath)} --forecasts ${shown(io, run.path)} --out ${shown(io, outPath.replace(/\.parquet$/i, ''))}-score`,
  );
  return 0;
}

/**
 * Scores the finished forecasts file at its temp path `file`, before it replaces `outPath`. A model that
 * skipped every pair has nothing to score; any refusal of the scorer names `outPath` (the temp path would
 * mean nothing to the user), and nothing is written.
 */
async function scoreBeforeSwitch(
  file: string,
  outPath: string,
  rows: number,
  record: RunRecord,
  options: { manifestPath: string; log: (line: string) => void; store: ScoreCacheStore | undefined },
): Promise<{ results: ScoringResults; split: ScoredSplit }> {
  const kept = `nothing was written (${outPath} and the --score folder are as they were)`;
  if (rows === 0) {
    throw new InputError(
      'RUN_NOTHING_TO_SCORE',
      `model ${record.model} skipped all ${record.pairs.asked} (series, origin) pairs, so there is nothing to score; ${kept}; answer at least one pair, or run without --score`,
      { context: { file: outPath, value: record.pairs.skipped } },
    );
  }
  let split: ScoredSplit | undefined;
  try {
    const results = await scoreSplit(options.manifestPath, [file], {
      log: (line) => options.log(line.split(file).join(outPath)),
      scoreStore: options.store,
      readForecasts: readForecastsFast,
      runSync: runInterruptibly,
      onSplit: (s) => {
        split = s;
      },
    });
    return { results, split: split! };
  } catch (err) {
    if (!(err instanceof AsofError)) throw err;
    options.log(`the scorer refused the forecasts: ${kept}`);
    if (!err.message.includes(file)) throw err;
    throw new AsofError(err.code, err.message.split(file).join(outPath), {
      context: { ...err.context, ...(err.context.file === file ? { file: outPath } : {}) },
      cause: err,
      exitCode: err.exitCode,
    });
  }
}

function summaryText(r: RunRecord, path: string, rows: number, io: Io): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  return (
    `model ${r.model}: ${fmt(r.pairs.forecast)} of ${fmt(r.pairs.asked)} (series, origin) pairs forecast` +
    `${r.pairs.skipped ? ` (${fmt(r.pairs.skipped)} skipped)` : ''} in ${fmt(r.batches)} batches, ${r.forecast_kind}\n` +
    `guard      ${fmt(r.guard.requests)} historyAt requests, ${fmt(r.guard.rows)} rows checked, none after its origin\n` +
    `fit        ${r.fit ? `${fmt(r.fit.series)} series, ${fmt(r.fit.rows)} rows public before the train cutoff` : 'declined by the model'}\n` +
    `time       ${r.runtime.seconds.toFixed(1)} s (waiting for the model ${r.runtime.model_seconds.toFixed(1)} s)\n` +
    `forecasts  ${shown(io, path)} (${fmt(rows)} rows)\n`
  );
}

function scoreText(results: ScoringResults, model: string, dir: string, io: Io): string {
  const aspects = results.ranks.overall.aspects;
  const table = formatTable(
    ['#', 'model', ...aspects, 'overall'],
    results.ranks.overall.models.map((m) => [
      m.position,
      m.model,
      ...aspects.map((a) => (a in m.aspect_rank ? m.aspect_rank[a] : '–')),
      m.overall,
    ]),
  );
  const verdict = results.verdicts.rows.find((v) => v.model === model && v.unit === '*')?.verdict ?? 'n/a';
  return (
    `\n${table}\n` +
    `${model} vs random walk: ${results.verdicts.status === 'ok' ? verdict : 'refused'}\n` +
    `leaderboard ${shown(io, join(dir, 'leaderboard.md'))}\n`
  );
}
