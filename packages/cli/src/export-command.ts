import { dirname, resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import {
  exportFintsb,
  FINTSB_FIELDS,
  FINTSB_K,
  type FintsbField,
  type PatternStatistics,
  type PriceFieldUnit,
} from '@asof/patterns';
import { FREQUENCIES, type Frequency, InputError } from '@asof/schema';
import { defaultRegistry, type Registry } from '@asof/taxonomy';
import { type Io, shown } from './commands.ts';
import { exportCsvCommand } from './export-csv-command.ts';
import { EXPORT_NIXTLA_USAGE, EXPORT_QLIB_USAGE, exportInteropCommand } from './export-interop-command.ts';
import { formatTable } from './format-table.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

/** The Nixtla and Qlib exports' usage lines, for `asof --help` and `asof export --help`. */
export const EXPORT_INTEROP_USAGE = `${EXPORT_NIXTLA_USAGE}\n  ${EXPORT_QLIB_USAGE}`;

export const EXPORT_USAGE =
  'asof export fintsb --manifest M --out DIR [--k N] [--length 250] [--datasets 5] [--frequency BD] [--field open|high|low|close|volume] [--labels quota|threshold] [--json]';

/**
 * The registry's price units and their OHLCV fields: price-kinds.tsv (live, raw and synthetic price files)
 * and the embedded default build's rows that name a field (embedded.tsv).
 */
export function priceFieldUnits(registry: Registry = defaultRegistry()): PriceFieldUnit[] {
  const rows = [
    ...registry.priceKinds,
    ...registry.embedded.filter((e): e is typeof e & { field: string } => e.field !== null),
  ];
  const out = new Map<string, PriceFieldUnit>();
  for (const r of rows) {
    if (!(FINTSB_FIELDS as readonly string[]).includes(r.field)) continue;
    const unit = { scope: r.scope, category: r.category, detail_category: r.detail_category };
    // Conflicting rows are kept apart so exportFintsb refuses them, naming the unit.
    out.set(`${unit.scope}|${unit.category}|${unit.detail_category}|${r.field}`, {
      ...unit,
      field: r.field as FintsbField,
    });
  }
  return [...out.values()];
}

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
      field: { type: 'string' },
      labels: { type: 'string' },
      'as-of': { type: 'string' },
      json: { type: 'boolean' },
    },
    EXPORT_USAGE,
  );
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (parsed.positionals[0] === 'csv') return exportCsvCommand(v, parsed.positionals.slice(1), io);
  const [first, ...rest] = parsed.positionals;
  if (first === 'nixtla' || first === 'qlib') return exportInteropCommand(first, v, rest, io);
  if (v.help) {
    io.out(
      `${EXPORT_USAGE}\n\nWrites a FinTSB-style benchmark from a universe built with segments: per movement pattern (uptrend,\ndowntrend, volatile, extreme) N datasets of K series sharing one calendar segment, L steps each, no\n(series, segment) pair used twice, split 7:1:2 in time, returns normalised across each day's series,\nplus statistics.parquet (mean ADF, lag-1 autocorrelation, forecastability per pattern) and a derived\nmanifest naming the parent dataset_id. --labels quota (FinTSB's ranking, default) or threshold.\nEach dataset is one price field (--field, default close) of K distinct instruments the universe\nevaluates: one series per instrument (its total-return index when it has one), never two fields of one\ninstrument. Without --k, K is the largest (at most FinTSB's ${FINTSB_K}) that gives N datasets of every\npattern; a --k that is too large fails naming the one that works.\n\nOther exports (asof export <kind> --help for each):\n  ${EXPORT_INTEROP_USAGE}\n    Nixtla's long format (unique_id, ds, y + static columns) per frequency; Qlib's day feature\n    store (float32) and point-in-time store of EDGAR fundamentals (packages/interop/README.md).\n`,
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
  if (v['as-of'] !== undefined) {
    throw new InputError(
      'USAGE',
      `--as-of is an option of 'export nixtla' and 'export qlib'\n  usage: ${EXPORT_USAGE}`,
    );
  }
  if (typeof v.manifest !== 'string' || typeof v.out !== 'string') {
    throw new InputError('USAGE', `--manifest and --out are required\n  usage: ${EXPORT_USAGE}`);
  }
  const frequency = (v.frequency as string | undefined) ?? 'BD';
  if (!(FREQUENCIES as readonly string[]).includes(frequency)) {
    throw new InputError('USAGE', `--frequency ${frequency}: expected one of ${FREQUENCIES.join(', ')}`);
  }
  const field = (v.field as string | undefined) ?? 'close';
  if (!(FINTSB_FIELDS as readonly string[]).includes(field)) {
    throw new InputError('USAGE', `--field ${field}: expected one of ${FINTSB_FIELDS.join(', ')}`);
  }
  const labels = (v.labels as string | undefined) ?? 'quota';
  if (labels !== 'quota' && labels !== 'threshold') {
    throw new InputError('USAGE', `--labels ${labels}: expected quota or threshold`);
  }
  const git = await gitState(io.cwd);
  const result = await exportFintsb({
    manifestPath: resolve(io.cwd, v.manifest),
    outDir: resolve(io.cwd, v.out),
    k: v.k === undefined ? undefined : positive('k', v.k as string, 1),
    length: positive('length', v.length as string | undefined, 250),
    datasets: positive('datasets', v.datasets as string | undefined, 5),
    frequency: frequency as Frequency,
    field: field as FintsbField,
    priceFields: priceFieldUnits(),
    labelMode: labels,
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
    log: (line) => io.err(`asof export: ${line}\n`),
  });
  if (v.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: result.manifest.dataset_id, parent_dataset_id: result.manifest.parent_dataset_id, k: result.k, field: result.field, statistics: result.statistics })}\n`,
    );
  } else {
    io.out(renderStatistics(result.statistics));
    io.out(
      `\n${result.k} ${result.field} series of distinct instruments per dataset\ndataset_id ${result.manifest.dataset_id} (parent ${result.manifest.parent_dataset_id})\nmanifest   ${result.manifestPath}\n`,
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
