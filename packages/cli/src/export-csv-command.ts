import { resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { InputError } from '@asof/schema';
import { type Io, shown } from './commands.ts';
import { exportCsv } from './export-csv.ts';
import { nextHint } from './next-hint.ts';

export const EXPORT_CSV_USAGE = 'asof export csv --manifest M --out DIR [--json]';

const HELP = `${EXPORT_CSV_USAGE}

Writes every table the manifest lists (a universe, a split, any asof dataset) as CSV — one file per listed
Parquet file, same path with .csv — for tools that do not read Parquet (a bare pandas). Instants are plain
ISO-8601 UTC text with microseconds (2020-01-01T04:59:59.999999Z); every table with a timestamp gets a
'period' column (2019-12, 2019Q4, FY2019, 2020-03-04). DIR/manifest.json lists the CSVs with their sha256
and row counts and names the parent's dataset_id ('asof verify' checks it). README "Reading the data with
pandas" has the loader.
`;

/** `asof export csv`, given the options `asof export` parsed (its flags are a superset). */
export async function exportCsvCommand(
  values: Record<string, string | boolean | string[] | undefined>,
  extra: string[],
  io: Io,
): Promise<number> {
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (extra.length > 0) {
    throw new InputError('USAGE', `unexpected argument ${extra[0]}\n  usage: ${EXPORT_CSV_USAGE}`);
  }
  const fintsbOnly = Object.keys(values).find(
    (k) => values[k] !== undefined && !['manifest', 'out', 'json', 'help'].includes(k),
  );
  if (fintsbOnly) {
    throw new InputError(
      'USAGE',
      `--${fintsbOnly} is an option of 'export fintsb'\n  usage: ${EXPORT_CSV_USAGE}`,
    );
  }
  if (typeof values.manifest !== 'string' || typeof values.out !== 'string') {
    throw new InputError('USAGE', `--manifest and --out are required\n  usage: ${EXPORT_CSV_USAGE}`);
  }
  const git = await gitState(io.cwd);
  const result = await exportCsv({
    manifestPath: resolve(io.cwd, values.manifest),
    outDir: resolve(io.cwd, values.out),
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
    log: (line) => io.err(`asof export csv: ${line}\n`),
  });
  const m = result.manifest;
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: m.dataset_id, parent_dataset_id: m.parent_dataset_id, files: m.outputs.map((o) => ({ path: o.path, table: o.table, rows: o.rows })) })}\n`,
    );
  } else {
    io.out(
      `${m.outputs.length} CSV file(s), ${m.outputs.reduce((s, o) => s + o.rows, 0).toLocaleString('en-US')} rows\n` +
        `dataset_id ${m.dataset_id} (parent ${m.parent_dataset_id})\nmanifest   ${result.manifestPath}\n`,
    );
  }
  nextHint(
    io,
    `asof verify ${shown(io, result.manifestPath)}   (pandas: README "Reading the data with pandas")`,
  );
  return 0;
}
