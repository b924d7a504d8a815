import { resolve } from 'node:path';
import { BASELINE_MODELS } from '@asof/baselines';
import { InputError } from '@asof/schema';
import { defaultBaselineThreads, MAX_DEFAULT_BASELINE_THREADS, writeBaselineForecasts } from '@asof/split';
import { type Io, shown } from './commands.ts';
import { memoryLimitFlag } from './memory-limit-flag.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const BASELINES_USAGE =
  'asof baselines --manifest SPLIT/manifest.json --out FILE.parquet [--refit-every K] [--threads N] [--memory-limit SIZE] [--json]';

const HELP = `${BASELINES_USAGE}

Writes the random walk, drift, seasonal-naive, ARIMA and GARCH(1,1) forecasts of every origin of a split
made by 'asof split', as a forecasts file (schemas/forecast.schema.json: model, series_id, origin, step,
value, and q0.05…q0.95 for ARIMA and GARCH, empty for the others) that 'asof score' accepts. The split's files are re-hashed first. Each forecaster reads the history only
through the split's look-ahead guard (historyAt at the origin); reading past an origin aborts the run.
Steps count on the series' grid from the origin's own step o (step o+k is the k-th after it), whatever
the publication lag; y_o is the last value public at the origin, u steps before o (u = 0 for bars, 1 for
a month released the next month).
  random_walk      ŷ_{o+k} = y_o
  drift            the mean one-step change over the whole history public at the origin, from its first
                   value y_1 to y_o over their s steps on the grid (not their count: a split serves
                   nothing between its windows), h = k + u steps on from y_o: ŷ_{o+k} =
                   y_o·(y_o/y_1)^(h/s) when y_1, y_o > 0 (log levels), else y_o + h·(y_o − y_1)/s
  seasonal_naive   the value of grid step o+k−m⌈k/m⌉ as known at the origin (m = BD 5, D 7, W 52, M 12,
                   Q 4); if that step is not public, the latest public step of the same season in the
                   inputs, else y_o (December 2019 origin, monthly: Jan 2020 ← Jan 2019, Dec 2020 ← Dec 2018)
  arima            forecast::auto.arima on the origin's input window (log levels for a positive series),
                   median and quantiles exp(mean ± z·se) of steps u+1…u+H (docs/decisions/0013)
  garch            zero-mean GARCH(1,1) on the window's one-step log returns: median y_o, quantiles
                   y_o·exp(z·√V_k), V_k the summed variance forecast to the target
ARIMA and GARCH re-estimate their parameters every K origins of a series (--refit-every, default 10) and
re-run the filter on each origin's window in between.
--threads N fits ARIMA and GARCH on N worker threads, chunks of whole series each, put back in series order
(default: the machine's cores, at most ${MAX_DEFAULT_BASELINE_THREADS}; --threads 1 fits on the main thread). The file is the same
bytes at any N.
These are the scorer's own baselines: 'asof score' checks a file using these names against them (give it
the same --refit-every).
The work goes by blocks of series, staged in a DuckDB database beside the output; --memory-limit (DuckDB's
memory_limit, e.g. 4GB or 25%, default 2GB) bounds its work tables and each part's sort, which spill to
disk beyond it. The JavaScript side holds one block at a time (2–3 GB on the default universe's
all-origins split), so the process peaks at roughly the limit plus that (4.6 GB there, measured).
The forecasts go out as sorted parts joined into the file, so the work folder needs about twice the
file's size on disk (22 GB for that split's 402M rows: ARIMA's and GARCH's quantiles hardly compress).
`;

/** `asof baselines`: the baseline forecasts of a split, through historyAt, as a Parquet forecasts file. */
export async function baselinesCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      out: { type: 'string' },
      'refit-every': { type: 'string' },
      threads: { type: 'string' },
      'memory-limit': { type: 'string' },
      json: { type: 'boolean' },
    },
    BASELINES_USAGE,
  );
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length > 0) {
    throw new InputError('USAGE', `unexpected argument ${positionals[0]}\n  usage: ${BASELINES_USAGE}`);
  }
  if (typeof values.manifest !== 'string' || typeof values.out !== 'string') {
    throw new InputError('USAGE', `expected --manifest and --out\n  usage: ${BASELINES_USAGE}`);
  }
  if (!/\.parquet$/i.test(values.out)) {
    throw new InputError(
      'USAGE',
      `--out ${values.out}: the baselines are written as Parquet; name the file *.parquet, e.g. out/baselines.parquet`,
    );
  }
  const refitEvery = values['refit-every'] === undefined ? undefined : Number(values['refit-every']);
  if (refitEvery !== undefined && !(Number.isInteger(refitEvery) && refitEvery >= 1)) {
    throw new InputError(
      'USAGE',
      `--refit-every ${values['refit-every']}: expected a whole number ≥ 1 (default 10)\n  usage: ${BASELINES_USAGE}`,
    );
  }
  const threads = values.threads === undefined ? defaultBaselineThreads() : Number(values.threads);
  if (!(Number.isInteger(threads) && threads >= 1 && threads <= 256)) {
    throw new InputError(
      'USAGE',
      `--threads ${values.threads}: expected a whole number from 1 to 256 (default: the machine's cores, at most ${MAX_DEFAULT_BASELINE_THREADS})\n  usage: ${BASELINES_USAGE}`,
    );
  }
  const memoryLimit = memoryLimitFlag(values['memory-limit'] as string | undefined, BASELINES_USAGE);
  // Replaced in one rename, and only if asof wrote it and the split does not list it (docs/decisions/0010).
  const r = await writeBaselineForecasts(
    resolve(io.cwd, values.manifest),
    resolve(io.cwd, values.out),
    {},
    { log: (line) => io.err(`asof baselines: ${line}\n`), refitEvery, memoryLimit, threads },
  );
  if (values.json) {
    io.out(
      `${JSON.stringify({ forecasts: r.path, dataset_id: r.manifest.dataset_id, rows: r.rows, origins: r.origins, series: r.series, guard: r.guard })}\n`,
    );
  } else {
    io.out(
      `wrote ${r.rows.toLocaleString('en-US')} forecasts (${BASELINE_MODELS.join(', ')}) for ${r.origins.toLocaleString('en-US')} origins of ${r.series.toLocaleString('en-US')} series to ${r.path}\n` +
        `history served through historyAt: ${r.guard.requests.toLocaleString('en-US')} requests, ${r.guard.rows.toLocaleString('en-US')} rows checked (dataset_id ${r.manifest.dataset_id})\n`,
    );
  }
  const split = shown(io, resolve(io.cwd, values.manifest));
  const refit = refitEvery === undefined ? '' : ` --refit-every ${refitEvery}`;
  nextHint(
    io,
    `asof score --manifest ${split} --forecasts ${shown(io, r.path)}${refit} --out ${shown(io, r.path).replace(/\.parquet$/i, '')}-score`,
  );
  return 0;
}
