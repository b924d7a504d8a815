import { dirname, join, resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { faultPoint, runInterruptibly, writeOutputDir } from '@asof/output';
import { readRunRecords } from '@asof/runner';
import { elapsedStamp, InputError } from '@asof/schema';
import {
  checkForecastsReadable,
  coverageSummary,
  overallRankingLine,
  SCORING_WINDOWS,
  type ScoredSplit,
  type ScoringResults,
  type ScoringWindow,
  scoreSplit,
  windowSummary,
  writeResults,
} from '@asof/scoring';
import { type Io, shown } from './commands.ts';
import { formatTable } from './format-table.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { readForecastsFast } from './read-forecasts-duck.ts';
import { ScoreCacheStore, scoreCacheDir } from './score-cache.ts';

export const SCORE_USAGE =
  'asof score --manifest SPLIT/manifest.json --forecasts FILE [--forecasts FILE…] --out DIR [--universe U/manifest.json] [--allow-overlap] [--alpha 0.05] [--origin-stride N] [--refit-every K] [--half-spread-bps 5] [--slippage-bps 5] [--fee-bps 1] [--fintsb-compat paper|code] [--window T1|T2|T3] [--no-cache] [--json]';

const HELP = `${SCORE_USAGE}

Scores forecast files (CSV or Parquet: model, series_id, origin, step, value [+ q0.05…q0.95 | s1…sN])
against a split made by 'asof split' (either --layout). Every file the split manifest lists is re-hashed
first; a changed byte stops the run before anything is scored. The random walk (as its distribution
N(0, σ̂²h)), drift, seasonal-naive, ARIMA and GARCH(1,1) baselines are always scored. Tycheon metrics and the verdicts compare horizon-end log returns (scaled
change for series that reach ≤ 0), so forecasts for a positive series must be > 0. Writes
DIR/results.json (with the per-origin losses behind every verdict) and DIR/leaderboard.md. A split made
with --model-cutoff and --run-date labels its origins T1/T2/T3: every score, rank and verdict is given for
all origins and again for each window, with the T1 − T2 memorisation gap per model. The split as read
and the scorer's own baselines are kept per split in $ASOF_STATE_DIR/score-cache (default
~/.local/state/asof), so a second score of the same split neither reads its files nor fits ARIMA and
GARCH again (its results.json is the same bytes). DIR/manifest.json lists results.json and leaderboard.md
with their sha256 (kind 'scores'): 'asof report --results' and 'asof verify' refuse an edited byte.

  --manifest       the split's manifest.json
  --forecasts      a forecasts file; repeat for several (each model name once across files)
  --out            output folder (replaced only if empty or written by asof)
  --universe       the parent universe's manifest.json, for its tasks table when the split has none
  --allow-overlap  run the Diebold–Mariano verdicts even when origins overlap (origins policy 'all' with
                   H > 1, or origins closer than H steps). Without it those verdicts are refused: overlapping
                   H-step errors are autocorrelated and the pooled test is over-confident. With it, DM uses
                   H − 1 autocovariances (Harvey–Leybourne–Newbold), which only partly corrects this.
  --alpha          one-sided DM level for "beats"/"worse" (default 0.05)
  --origin-stride  steps between consecutive origins, for the FinVerse portfolio holding period and the
                   FinTSB backtests' annualisation (default: measured per unit from the origins)
  --refit-every    ARIMA and GARCH re-estimate their parameters every K origins of a series (default 10);
                   a file from 'asof baselines --refit-every K' is checked against the same K
  --half-spread-bps, --slippage-bps, --fee-bps
                   costs of the cost-aware diagnostic (diagnostic, not a trading system: each origin holds
                   sign(median forecast) for one horizon and pays half spread + slippage + fee on turnover),
                   in basis points per unit traded (defaults 5, 5, 1)
  --fintsb-compat  paper (default: FinTSB's text) or code: its published code's conventions, to compare with
                   the paper's tables ((1 − c)² on the mean return, MDD from NAV₁, ICIR with ddof 0, IR as its
                   report prints it), as fintsb.code.* cells
  --window W       score only window W's origins (T1: targets known before the model cutoff, T2: after it
                   and known by the run date, T3: pending, scored on the steps known); the baselines are
                   fitted on every origin, so the values equal W's section of a score without --window
  --no-cache       read the split and fit the baselines afresh; neither read nor write the score cache
  --json           print a JSON summary instead of tables
`;

/** `asof score`: verify the split, score the forecasts and baselines, write results and leaderboard. */
export async function scoreCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      forecasts: { type: 'string', multiple: true },
      out: { type: 'string' },
      universe: { type: 'string' },
      'allow-overlap': { type: 'boolean' },
      alpha: { type: 'string' },
      'origin-stride': { type: 'string' },
      'refit-every': { type: 'string' },
      'half-spread-bps': { type: 'string' },
      'slippage-bps': { type: 'string' },
      'fee-bps': { type: 'string' },
      'fintsb-compat': { type: 'string' },
      window: { type: 'string' },
      'no-cache': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    SCORE_USAGE,
  );
  if (positionals.length > 0) {
    throw new InputError('USAGE', `unexpected argument ${positionals[0]}\n  usage: ${SCORE_USAGE}`);
  }
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  const forecasts = (values.forecasts as string[] | undefined) ?? [];
  if (typeof values.manifest !== 'string' || forecasts.length === 0 || typeof values.out !== 'string') {
    throw new InputError(
      'USAGE',
      `expected --manifest, at least one --forecasts and --out\n  usage: ${SCORE_USAGE}`,
    );
  }
  const { alpha, stride, refit, costs, compat, window } = scoreSettings(values);
  const manifestPath = resolve(io.cwd, values.manifest);
  const forecastPaths = forecasts.map((f) => resolve(io.cwd, f));
  const universe = typeof values.universe === 'string' ? resolve(io.cwd, values.universe) : undefined;
  // Every forecasts file is checked (exists, a file, a known format, a header and a row) before any work.
  for (const f of forecastPaths) await checkForecastsReadable(f);
  const inputs = [
    manifestPath,
    dirname(manifestPath),
    ...forecastPaths,
    ...(universe ? [universe, dirname(universe)] : []),
  ];
  // Every line is stamped from the command's start (main.ts), reading the inputs included.
  const log = (line: string) => io.err(`asof score: ${elapsedStamp()} ${line}\n`);
  const store = values['no-cache'] ? undefined : new ScoreCacheStore(scoreCacheDir(), inputs, log);
  const git = gitState(io.cwd);
  if (store?.disabledBecause) log(store.disabledBecause);
  // results.json and leaderboard.md are one output folder, switched together (docs/decisions/0010).
  const { value: results, path: outDir } = await writeOutputDir(
    resolve(io.cwd, values.out),
    { command: 'asof score', writes: 'scores', inputs },
    async ({ dir }) => {
      let split: ScoredSplit | undefined;
      const scored = await scoreSplit(manifestPath, forecastPaths, {
        onSplit: (s) => {
          split = s;
        },
        allowOverlap: Boolean(values['allow-overlap']),
        alpha,
        originStride: stride,
        refitEvery: refit,
        costs,
        fintsbCompat: compat as 'paper' | 'code' | undefined,
        universeManifest: universe,
        window: window as ScoringWindow | undefined,
        scoreStore: store?.disabledBecause ? undefined : store,
        readForecasts: readForecastsFast,
        runSync: runInterruptibly,
        log,
      });
      // Forecasts written by asof run carry their run record (guard checks, command, hashes): keep it.
      const runs = readRunRecords(forecastPaths);
      if (runs.length) scored.runs = runs;
      await faultPoint('run:midway');
      const { commit, dirty } = await git;
      await writeResults(dir, scored, {
        split: split!,
        createdBy: { asof_version: ASOF_VERSION, git_commit: commit, git_dirty: dirty },
      });
      return scored;
    },
  );
  const paths = { results: join(outDir, 'results.json'), leaderboard: join(outDir, 'leaderboard.md') };
  const hint = `cat ${shown(io, paths.leaderboard)}   (or: asof report --manifest ${shown(io, manifestPath)} --results ${shown(io, paths.results)} --out ${shown(io, outDir)}.html)`;
  if (results.verdicts.status === 'refused') io.err(`asof score: warning: ${results.verdicts.reason}\n`);
  const pooled = results.verdicts.rows.filter((r) => r.unit === '*');
  if (values.json) {
    io.out(`${JSON.stringify(scoreJsonSummary(results, paths, pooled))}\n`);
    nextHint(io, hint);
    return 0;
  }
  const verdictOf = new Map(pooled.map((r) => [r.model, r.verdict ?? 'n/a']));
  const aspects = results.ranks.overall.aspects;
  io.out(
    `${overallRankingLine(results)}\n${formatTable(
      ['#', 'model', ...aspects, 'overall', 'vs random walk'],
      results.ranks.overall.models.map((m) => [
        m.position,
        m.model,
        ...aspects.map((a) => (a in m.aspect_rank ? m.aspect_rank[a] : '–')),
        m.overall,
        m.model === 'random_walk'
          ? '–'
          : results.verdicts.status === 'ok'
            ? (verdictOf.get(m.model) ?? 'n/a')
            : 'refused',
      ]),
    )}\n\n${[...windowSummary(results), ...coverageSummary(results)]
      .map((l) => `${l}\n`)
      .join('')}${results.baselines_win.length} headline cell(s) led by a baseline (see the leaderboard)\n` +
      `dataset_id ${results.dataset_id}\nresults    ${paths.results}\nleaderboard ${paths.leaderboard}\n`,
  );
  nextHint(io, hint);
  return 0;
}

/** The score flags beyond the paths, checked: each bad value is a USAGE error naming the flag. */
function scoreSettings(values: Record<string, unknown>) {
  const alpha = values.alpha === undefined ? undefined : Number(values.alpha);
  if (alpha !== undefined && !(alpha > 0 && alpha < 1)) {
    throw new InputError('USAGE', `--alpha ${values.alpha}: expected a level in (0, 1) such as 0.05`);
  }
  const stride = values['origin-stride'] === undefined ? undefined : Number(values['origin-stride']);
  if (stride !== undefined && !(Number.isInteger(stride) && stride >= 1)) {
    throw new InputError('USAGE', `--origin-stride ${values['origin-stride']}: expected an integer ≥ 1`);
  }
  const refit = values['refit-every'] === undefined ? undefined : Number(values['refit-every']);
  if (refit !== undefined && !(Number.isInteger(refit) && refit >= 1)) {
    throw new InputError(
      'USAGE',
      `--refit-every ${values['refit-every']}: expected a whole number ≥ 1 (default 10)`,
    );
  }
  const bps = (flag: 'half-spread-bps' | 'slippage-bps' | 'fee-bps'): number | undefined => {
    const v = values[flag];
    if (v === undefined) return undefined;
    const x = Number(v);
    if (typeof v !== 'string' || v.trim() === '' || !(Number.isFinite(x) && x >= 0)) {
      throw new InputError('USAGE', `--${flag} ${v}: expected basis points ≥ 0, e.g. 5`);
    }
    return x / 10_000;
  };
  const costs = {
    ...(bps('half-spread-bps') === undefined ? {} : { halfSpread: bps('half-spread-bps') }),
    ...(bps('slippage-bps') === undefined ? {} : { slippage: bps('slippage-bps') }),
    ...(bps('fee-bps') === undefined ? {} : { fee: bps('fee-bps') }),
  };
  const compat = values['fintsb-compat'] as string | undefined;
  if (compat !== undefined && compat !== 'paper' && compat !== 'code') {
    throw new InputError('USAGE', `--fintsb-compat ${compat}: expected paper (the default) or code`);
  }
  const window = values.window as string | undefined;
  if (window !== undefined && !(SCORING_WINDOWS as readonly string[]).includes(window as string)) {
    throw new InputError(
      'USAGE',
      `--window ${window}: expected one of ${SCORING_WINDOWS.join(', ')} (the split's knowledge windows)`,
    );
  }
  return { alpha, stride, refit, costs, compat, window };
}

/** `asof score --json`'s summary: where the results are, the overall ranking, the verdicts per window. */
function scoreJsonSummary(
  results: ScoringResults,
  paths: { results: string; leaderboard: string },
  pooled: ScoringResults['verdicts']['rows'],
) {
  return {
    results: paths.results,
    leaderboard: paths.leaderboard,
    dataset_id: results.dataset_id,
    config_sha256: results.config_sha256,
    verdicts: results.verdicts.status,
    overall: results.ranks.overall.models.map((m) => ({
      model: m.model,
      position: m.position,
      overall: m.overall,
    })),
    pooled_verdicts: pooled.map((r) => ({ model: r.model, verdict: r.verdict })),
    baselines_win: results.baselines_win.length,
    coverage: results.models.map((m) => ({ model: m.model, ...m.coverage })),
    window: results.config.window ?? 'all',
    windows: results.windows.map((w) => ({
      window: w.window,
      origins: w.origins.origins,
      overall: w.ranks.overall.models.map((m) => ({ model: m.model, position: m.position })),
      pooled_verdicts: w.verdicts.rows
        .filter((r) => r.unit === '*')
        .map((r) => ({ model: r.model, verdict: r.verdict, ...(r.partial ? { partial: true } : {}) })),
    })),
    memorisation_gap: results.memorisation_gap,
  };
}
