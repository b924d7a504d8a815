import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { periodLabel } from '@asof/calendar';
import { BIGINT, BOOLEAN, Duck, quoteIdent, quoteLiteral, VARCHAR } from '@asof/duck';
import {
  finalizeDerivedManifest,
  manifestOutput,
  openVerifiedManifest,
  parentInputs,
  writeDerivedDir,
  writeManifest,
} from '@asof/manifest';
import type { Manifest, ManifestOutput } from '@asof/schema';

export interface ExportCsvOptions {
  manifestPath: string;
  outDir: string;
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  log?: (line: string) => void;
}

export interface ExportCsvResult {
  manifest: Manifest;
  manifestPath: string;
}

/** The column added to every table with a `timestamp`: the period it is about, in its series' own terms. */
export const PERIOD_COLUMN = 'period';
/** The format iso_instant (@asof/duck's sql/macros.sql) writes instants in, as the export's manifest states it. */
const ISO_FORMAT = '%Y-%m-%dT%H:%M:%S.%fZ';

interface Column {
  column_name: string;
  column_type: string;
}

/**
 * `asof export csv`: every table the manifest lists (a universe, a split, any asof dataset), one CSV per
 * listed Parquet file at the same path with `.csv`, in the file's row order. Instants are plain ISO-8601 UTC
 * text with microseconds (2020-01-01T04:59:59.999999Z); a table with a `timestamp` column gets a `period`
 * column (2019-12, 2019Q4, FY2019, 2020-03-04: @asof/calendar periodLabel of its series' frequency). The
 * manifest of the export lists the CSVs with their sha256 and rows and names the parent's dataset_id.
 * The parent is verified first and read only through the files it lists.
 */
export async function exportCsv(options: ExportCsvOptions): Promise<ExportCsvResult> {
  const log = options.log ?? (() => {});
  const verified = await openVerifiedManifest(options.manifestPath);
  try {
    const parent = verified.manifest;
    const value = await writeDerivedDir(
      verified,
      {
        outDir: options.outDir,
        manifestPath: options.manifestPath,
        command: 'asof export csv',
        writes: 'csv-export',
      },
      async ({ dir, work }) => {
        const duck = await Duck.open({ threads: 2, tempDirectory: join(work, 'spill') });
        try {
          const files = verified.files().filter((f) => /\.parquet$/i.test(f.output.path));
          await stageFrequencies(
            duck,
            files.map((f) => ({ readPath: f.readPath })),
          );
          const outputs: ManifestOutput[] = [];
          for (const f of files) {
            const path = f.output.path.replace(/\.parquet$/i, '.csv');
            const columns = await duck.all<Column>(
              `DESCRIBE SELECT * FROM read_parquet(${quoteLiteral(f.readPath)}, hive_partitioning = false)`,
            );
            await writeCsv(duck, f.readPath, columns, join(dir, ...path.split('/')));
            const written = columns.map(
              (c) =>
                `${c.column_name}:${c.column_type === 'TIMESTAMP WITH TIME ZONE' ? 'VARCHAR' : c.column_type}`,
            );
            if (hasPeriod(columns)) written.push(`${PERIOD_COLUMN}:VARCHAR`);
            outputs.push(
              await manifestOutput(dir, {
                path,
                table: f.output.table,
                rows: f.output.rows,
                columns: written,
                min_timestamp: f.output.min_timestamp,
                max_timestamp: f.output.max_timestamp,
                min_available_at: f.output.min_available_at,
                max_available_at: f.output.max_available_at,
              }),
            );
            log(`${path}: ${f.output.rows.toLocaleString('en-US')} rows`);
          }
          const manifest = finalizeDerivedManifest(parent, {
            suffix: 'csv',
            kind: 'csv-export',
            duckdbVersion: await duck.version(),
            createdBy: options.createdBy,
            config: {
              format: 'csv',
              parent_kind: parent.kind,
              instants: `ISO-8601 UTC text (${ISO_FORMAT})`,
              period_column: PERIOD_COLUMN,
            },
            inputs: parentInputs(verified, files),
            outputs,
            warnings: parent.warnings,
            summary: {
              tables: new Set(outputs.map((o) => o.table)).size,
              files: outputs.length,
              rows: outputs.reduce((s, o) => s + o.rows, 0),
            },
          });
          writeManifest(join(dir, 'manifest.json'), manifest);
          return manifest;
        } finally {
          duck.close();
        }
      },
      (m: Manifest) => m,
    );
    return { manifest: value, manifestPath: join(options.outDir, 'manifest.json') };
  } finally {
    verified.close();
  }
}

function hasPeriod(columns: readonly Column[]): boolean {
  return (
    columns.some((c) => c.column_name === 'timestamp' && c.column_type === 'TIMESTAMP WITH TIME ZONE') &&
    columns.some((c) => c.column_name === 'series_id')
  );
}

/**
 * Each series' frequency and fiscal year (from every listed table that has them: series, train_series,
 * origins, …), then the period label of every distinct (frequency, fiscal, timestamp) the tables hold —
 * labelled in TypeScript: the label needs the New York date, and SQL works in UTC only (docs/decisions/0024).
 */
async function stageFrequencies(duck: Duck, files: readonly { readPath: string }[]): Promise<void> {
  const withFrequency: string[] = [];
  const withTimestamp: string[] = [];
  for (const f of files) {
    const src = `read_parquet(${quoteLiteral(f.readPath)}, hive_partitioning = false)`;
    const names = new Set(
      (await duck.all<Column>(`DESCRIBE SELECT * FROM ${src}`)).map((c) => c.column_name),
    );
    if (names.has('series_id') && names.has('frequency')) {
      withFrequency.push(
        `SELECT series_id, frequency, ${names.has('fiscal_year_end') ? 'fiscal_year_end' : 'NULL::VARCHAR AS fiscal_year_end'} FROM ${src}`,
      );
    }
    if (names.has('series_id') && names.has('timestamp'))
      withTimestamp.push(`SELECT series_id, "timestamp" FROM ${src}`);
  }
  await duck.run(
    `CREATE TABLE csv_series AS
     SELECT series_id, any_value(frequency) AS frequency,
            bool_or(frequency = 'A' AND coalesce(fiscal_year_end, '1231') <> '1231') AS fiscal
     FROM (${withFrequency.length ? withFrequency.join(' UNION ALL ') : 'SELECT NULL::VARCHAR AS series_id, NULL::VARCHAR AS frequency, NULL::VARCHAR AS fiscal_year_end WHERE false'})
     GROUP BY series_id`,
  );
  await duck.run('CREATE TABLE csv_labels (frequency VARCHAR, fiscal BOOLEAN, us BIGINT, label VARCHAR)');
  if (withTimestamp.length === 0) return;
  const keys = await duck.all<{ frequency: string; fiscal: boolean; us: bigint }>(
    `SELECT DISTINCT s.frequency, s.fiscal, epoch_us(t."timestamp") AS us
     FROM (${withTimestamp.join(' UNION ALL ')}) AS t JOIN csv_series AS s USING (series_id)
     WHERE t."timestamp" IS NOT NULL
     ORDER BY s.frequency, s.fiscal, us`,
  );
  await duck.appendColumns(
    'csv_labels',
    [VARCHAR, BOOLEAN, BIGINT, VARCHAR],
    [
      keys.map((k) => k.frequency),
      keys.map((k) => k.fiscal),
      keys.map((k) => k.us),
      keys.map((k) => periodLabel(Number(k.us), k.frequency, k.fiscal ? 'non-calendar' : null)),
    ],
  );
}

/** One listed Parquet file as CSV: instants as ISO text, the period label, in the file's row order. */
async function writeCsv(
  duck: Duck,
  readPath: string,
  columns: readonly Column[],
  target: string,
): Promise<void> {
  const select = columns.map((c) => {
    const id = `t.${quoteIdent(c.column_name)}`;
    return c.column_type === 'TIMESTAMP WITH TIME ZONE'
      ? `iso_instant(make_timestamp(epoch_us(${id}))) AS ${quoteIdent(c.column_name)}`
      : id;
  });
  const period = hasPeriod(columns);
  const joins = period
    ? `LEFT JOIN csv_series AS s ON s.series_id = t.series_id
       LEFT JOIN csv_labels AS l ON l.frequency = s.frequency AND l.fiscal = s.fiscal AND l.us = epoch_us(t."timestamp")`
    : '';
  mkdirSync(dirname(target), { recursive: true });
  await duck.run(
    `COPY (
       SELECT ${select.join(', ')}${period ? `, l.label AS ${PERIOD_COLUMN}` : ''}
       FROM read_parquet(${quoteLiteral(readPath)}, hive_partitioning = false, file_row_number = true) AS t ${joins}
       ORDER BY t.file_row_number
     ) TO ${quoteLiteral(target)} (FORMAT csv, HEADER true)`,
  );
}
