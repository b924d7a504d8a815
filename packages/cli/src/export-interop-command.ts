import { resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { isoToMicros, microsToIso } from '@asof/calendar';
import { exportNixtla, exportQlib, type Float32Report } from '@asof/interop';
import { InputError } from '@asof/schema';
import { type Io, shown } from './commands.ts';
import { nextHint } from './next-hint.ts';

export const EXPORT_NIXTLA_USAGE = 'asof export nixtla --manifest M --out DIR [--as-of T] [--json]';
export const EXPORT_QLIB_USAGE = 'asof export qlib --manifest M --out DIR [--as-of T] [--json]';

const HELP: Record<'nixtla' | 'qlib', string> = {
  nixtla: `${EXPORT_NIXTLA_USAGE}

Writes the universe's as-of view (latest, or as known at --as-of T) in Nixtla's long format, for
statsforecast, neuralforecast and mlforecast: per frequency DIR/nixtla_<F>.parquet and DIR/nixtla_<F>.csv
(for a pandas without pyarrow) with unique_id (the series_id), ds (the New York date of the timestamp:
the session's day for bars, the period's last day for M/Q/A), y (float64), then the series' descriptive
columns (frequency, title, unit, scope, category, detail_category, entity_id, …). Withdrawn values have
no row; rows are sorted by unique_id, ds. DIR/manifest.json lists the files ('asof verify' checks it).
packages/interop/README.md has the details and limits.
`,
  qlib: `${EXPORT_QLIB_USAGE}

Writes the universe in Qlib's file layout: the daily price series (ids ending :<symbol>:open, high, low,
close, volume or factor; frequency BD or D) as its binary feature store — calendars/day.txt,
instruments/all.txt, features/<symbol>/<field>.day.bin (float32, as-of values) — and the EDGAR
fundamentals, every vintage, as its point-in-time store financial/<symbol>/<field>_{q,a}.data/.index
(date = the New York date of available_at). Symbols are lower-cased; CON, PRN, AUX, NUL, COM0-9 and
LPT0-9 get Qlib's _qlib_ prefix. Other frequencies (W, M, Q, A) and non-price series are not written:
use 'asof export nixtla' for them. Values float32 rounds by more than 1e-7 relative are counted in the
FLOAT32_ROUNDING warning. packages/interop/README.md has the details and limits.
`,
};

/** `asof export nixtla` / `asof export qlib`, given the options `asof export` parsed. */
export async function exportInteropCommand(
  kind: 'nixtla' | 'qlib',
  values: Record<string, string | boolean | undefined>,
  extra: string[],
  io: Io,
): Promise<number> {
  const usage = kind === 'nixtla' ? EXPORT_NIXTLA_USAGE : EXPORT_QLIB_USAGE;
  if (values.help) {
    io.out(HELP[kind]);
    return 0;
  }
  if (extra.length > 0) throw new InputError('USAGE', `unexpected argument ${extra[0]}\n  usage: ${usage}`);
  const other = Object.keys(values).find(
    (k) => values[k] !== undefined && !['manifest', 'out', 'json', 'help', 'as-of'].includes(k),
  );
  if (other)
    throw new InputError('USAGE', `--${other} is not an option of 'export ${kind}'\n  usage: ${usage}`);
  if (typeof values.manifest !== 'string' || typeof values.out !== 'string') {
    throw new InputError('USAGE', `--manifest and --out are required\n  usage: ${usage}`);
  }
  const asOfText = values['as-of'];
  const asOf =
    typeof asOfText === 'string'
      ? microsToIso(
          isoToMicros(/^\d{4}-\d{2}-\d{2}$/.test(asOfText) ? `${asOfText}T00:00:00Z` : asOfText, '--as-of'),
        )
      : undefined;
  const git = await gitState(io.cwd);
  const options = {
    manifestPath: resolve(io.cwd, values.manifest),
    outDir: resolve(io.cwd, values.out),
    asOf,
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
    log: (line: string) => io.err(`asof export ${kind}: ${line}\n`),
  };
  const result = kind === 'nixtla' ? await exportNixtla(options) : await exportQlib(options);
  const m = result.manifest;
  const float32 = 'float32' in result ? (result.float32 as Float32Report) : undefined;
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: m.dataset_id, parent_dataset_id: m.parent_dataset_id, summary: m.summary, warnings: m.warnings })}\n`,
    );
  } else {
    io.out(
      `${m.outputs.length} file(s) in ${kind === 'nixtla' ? "Nixtla's long format" : "Qlib's layout"}\n`,
    );
    if (float32) {
      io.out(
        `float32: ${float32.values.toLocaleString('en-US')} values, ${float32.rounded.toLocaleString('en-US')} rounded, max relative ${float32.max_relative.toExponential(2)}, ${float32.exceeding} beyond ${float32.tolerance}\n`,
      );
    }
    io.out(`dataset_id ${m.dataset_id} (parent ${m.parent_dataset_id})\nmanifest   ${result.manifestPath}\n`);
  }
  nextHint(io, `asof verify ${shown(io, result.manifestPath)}   (packages/interop/README.md)`);
  return 0;
}
