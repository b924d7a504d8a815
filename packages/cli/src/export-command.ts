import { dirname, resolve } from 'node:path';
import { exportFintsb, type PatternStatistics } from '@asof/patterns';
import { FREQUENCIES, type Frequency, InputError } from '@asof/schema';
import { ASOF_VERSION } from './build-universe.ts';
import { type Io, shown } from './commands.ts';
import { formatTable } from './format-table.ts';
import { gitState } from './git-state.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const EXPORT_USAGE =
  'asof export fintsb --manifest M --out DIR [--k 300] [--length 250] [--datasets 5] [--frequency BD] [--labels quota|threshold] [--json]';

/** Parses a whole positive number option, naming the flag and the value when it is not one. */
function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    throw new InputError(
      'USAGE',
      `--${name} ${text}: expected a positive whole number\n  usage: ${EXPORT_USAGE}`,
    );
  }
  return Number(text);
}

/**
 * `asof export fintsb`: a FinTSB-style benchmark (4 movement patterns × N datasets of K series × L steps,
 * split 7:1:2, normalised per day across the dataset) derived from a built universe's segments (SPEC §7).
 */
export async function exportCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      out: { type: 'string' },
      k: { type: 'string' },
      length: { type: 'string' },
      datasets: { type: 'string' },
      frequency: { type: 'string' },
      labels: { type: 'string' },
      json: { type: 'boolean' },
    },
    EXPORT_USAGE,
  );
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v.help) {
    io.out(
      `${EXPORT_USAGE}\n\nWrites a FinTSB-style benchmark from a universe built with segments: per movement pattern (uptrend,\ndowntrend, volatile, extreme) N datasets of K series sharing one calendar segment, L steps each, no\n(series, segment) pair used twice, split 7:1:2 in time, returns normalised across each day's series,\nplus statistics.parquet (mean ADF, lag-1 autocorrelation, forecastability per pattern) and a derived\nmanifest naming the parent dataset_id. --labels quota (FinTSB's ranking, default) or threshold.\n`,
    );
    return 0;
  }
  const [kind, ...extra] = parsed.positionals;
  if (kind !== 'fintsb' || extra.length > 0) {
    throw new InputError(
      'USAGE',
      `expected 'export fintsb', got 'export ${parsed.positionals.join(' ')}'\n  usage: ${EXPORT_USAGE}`,
    );
  }
  if (typeof v.manifest !== 'string' || typeof v.out !== 'string') {
    throw new InputError('USAGE', `--manifest and --out are required\n  usage: ${EXPORT_USAGE}`);
  }
  const frequency = (v.frequency as string | undefined) ?? 'BD';
  if (!(FREQUENCIES as readonly string[]).includes(frequency)) {
    throw new InputError('USAGE', `--frequency ${frequency}: expected one of ${FREQUENCIES.join(', ')}`);
  }
  const labels = (v.labels as string | undefined) ?? 'quota';
  if (labels !== 'quota' && labels !== 'threshold') {
    throw new InputError('USAGE', `--labels ${labels}: expected quota or threshold`);
  }
  const git = gitState(io.cwd);
  const result = await exportFintsb({
    manifestPath: resolve(io.cwd, v.manifest),
    outDir: resolve(io.cwd, v.out),
    k: positive('k', v.k as string | undefined, 300),
    length: positive('length', v.length as string | undefined, 250),
    datasets: positive('datasets', v.datasets as string | undefined, 5),
    frequency: frequency as Frequency,
    labelMode: labels,
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
    log: (line) => io.err(`asof export: ${line}\n`),
  });
  if (v.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: result.manifest.dataset_id, parent_dataset_id: result.manifest.parent_dataset_id, statistics: result.statistics })}\n`,
    );
  } else {
    io.out(renderStatistics(result.statistics));
    io.out(
      `\ndataset_id ${result.manifest.dataset_id} (parent ${result.manifest.parent_dataset_id})\nmanifest   ${result.manifestPath}\n`,
    );
  }
  nextHint(
    io,
    `asof report --manifest ${shown(io, result.manifestPath)} --out ${shown(io, dirname(result.manifestPath))}.html`,
  );
  return 0;
}

/** FinTSB Table 1: per pattern, mean non-stationarity (ADF), autocorrelation, forecastability, split. */
function renderStatistics(rows: PatternStatistics[]): string {
  return formatTable(
    ['pattern', 'datasets', 'series', 'ADF', 'autocorrelation', 'forecastability', 'split'],
    rows.map((r) => [
      r.pattern,
      r.datasets,
      r.series,
      r.adf_stat.toFixed(2),
      r.acf1.toFixed(3),
      r.forecastability.toFixed(3),
      r.split,
    ]),
  );
}
