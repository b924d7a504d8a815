import { join } from 'node:path';
import { type Duck, loadQuery, quoteLiteral } from '@asof/duck';
import {
  finalizeDerivedManifest,
  manifestOutput,
  parentInputs,
  type VerifiedManifest,
  writeManifest,
} from '@asof/manifest';
import type { Manifest, ManifestOutput } from '@asof/schema';
import { SQL_DIR, stageLocalDates, stageUniverse, universeFiles } from './stage-universe.ts';
import { type ExportOptions, type ExportResult, writeExport } from './write-export.ts';

/** One Nixtla file of one frequency: its rows and series. */
export interface NixtlaFile {
  frequency: string;
  rows: number;
  series: number;
}

/**
 * `asof export nixtla`: the universe's as-of view (latest, or as known at `asOf`) in Nixtla's long format,
 * one pair of files per frequency, `nixtla_<F>.parquet` and `nixtla_<F>.csv` (for a pandas without
 * pyarrow): unique_id (the series_id), ds (the New York date of the timestamp), y (the value, float64), then
 * the series' descriptive columns (frequency, title, unit, scope, category, detail_category, …). Withdrawn
 * values have no row; rows are sorted by unique_id, ds. The derived manifest lists the files and names the
 * parent's dataset_id.
 */
export function exportNixtla(options: ExportOptions): Promise<ExportResult> {
  return writeExport(
    options,
    { command: 'asof export nixtla', writes: 'nixtla-export' },
    (duck, verified, dir) => writeNixtla(duck, verified, dir, options),
  );
}

async function writeNixtla(
  duck: Duck,
  verified: VerifiedManifest,
  dir: string,
  options: ExportOptions,
): Promise<Manifest> {
  const log = options.log ?? (() => {});
  const files = universeFiles(verified);
  await stageUniverse(duck, files, options.asOf ?? 'infinity');
  await stageLocalDates(duck, 'SELECT timestamp_us AS us FROM latest_values');
  const frequencies = await duck.all<{ frequency: string }>(
    `SELECT DISTINCT s.frequency FROM latest_values JOIN series_static AS s USING (series_id)
     ORDER BY s.frequency`,
  );
  const outputs: ManifestOutput[] = [];
  const written: NixtlaFile[] = [];
  for (const { frequency } of frequencies) {
    const base = `nixtla_${frequency}`;
    const query = loadQuery(SQL_DIR, 'nixtla_long');
    await duck.createTable('nixtla_rows', query, { frequency });
    await duck.writeParquet('SELECT * FROM nixtla_rows ORDER BY unique_id, ds', join(dir, `${base}.parquet`));
    await duck.run(
      `COPY (SELECT * FROM nixtla_rows ORDER BY unique_id, ds) TO ${quoteLiteral(join(dir, `${base}.csv`))} (FORMAT csv, HEADER true)`,
    );
    const facts = await nixtlaFacts(duck, frequency);
    for (const path of [`${base}.parquet`, `${base}.csv`]) {
      outputs.push(await manifestOutput(dir, { path, table: 'nixtla', ...facts.output }));
    }
    written.push({ frequency, rows: facts.output.rows, series: facts.series });
    log(`${base}.parquet/.csv: ${facts.output.rows.toLocaleString('en-US')} rows, ${facts.series} series`);
  }
  const manifest = finalizeDerivedManifest(verified.manifest, {
    suffix: 'nixtla',
    kind: 'nixtla-export',
    duckdbVersion: await duck.version(),
    createdBy: options.createdBy,
    config: {
      format: 'nixtla',
      as_of: options.asOf ?? 'latest',
      columns: 'unique_id = series_id, ds = New York date of timestamp, y = value, then static columns',
      files: 'nixtla_<frequency>.parquet and .csv',
    },
    inputs: parentInputs(verified),
    outputs,
    warnings: verified.manifest.warnings,
    summary: {
      files: outputs.length,
      rows: written.reduce((s, f) => s + f.rows, 0),
      series: written.reduce((s, f) => s + f.series, 0),
      frequencies: Object.fromEntries(written.map((f) => [f.frequency, { rows: f.rows, series: f.series }])),
    },
  });
  writeManifest(join(dir, 'manifest.json'), manifest);
  return manifest;
}

/** A frequency's rows, series, columns and time range, for its manifest entries. */
async function nixtlaFacts(duck: Duck, frequency: string) {
  const columns = await duck.all<{ column_name: string; column_type: string }>('DESCRIBE nixtla_rows');
  const r = await duck.one<{
    rows: bigint;
    series: bigint;
    min_t: string | null;
    max_t: string | null;
    min_a: string | null;
    max_a: string | null;
  }>(
    `SELECT count(*) AS rows, count(DISTINCT series_id) AS series,
            iso_instant(min("timestamp")) AS min_t, iso_instant(max("timestamp")) AS max_t,
            iso_instant(min(available_at)) AS min_a, iso_instant(max(available_at)) AS max_a
     FROM latest_values JOIN series_static AS s USING (series_id) WHERE s.frequency = $frequency`,
    { frequency },
  );
  return {
    series: Number(r.series),
    output: {
      rows: Number(r.rows),
      columns: columns.map((c) => `${c.column_name}:${c.column_type}`),
      min_timestamp: r.min_t,
      max_timestamp: r.max_t,
      min_available_at: r.min_a,
      max_available_at: r.max_a,
    },
  };
}
