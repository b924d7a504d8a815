import { join } from 'node:path';
import { type Duck, quoteLiteral } from '@asof/duck';
import {
  finalizeDerivedManifest,
  manifestOutput,
  parentInputs,
  type VerifiedManifest,
  writeManifest,
} from '@asof/manifest';
import { InputError, type Manifest, type ManifestOutput } from '@asof/schema';
import { chooseQlibSeries } from './choose-qlib-series.ts';
import { type Float32Report, newFloat32Report } from './float32-report.ts';
import { stageUniverse, universeFiles } from './stage-universe.ts';
import { type ExportOptions, type ExportResult, writeExport } from './write-export.ts';
import { stageQlibSeries, writeQlibFeatures } from './write-qlib-features.ts';
import { writeQlibPit } from './write-qlib-pit.ts';

/**
 * `asof export qlib`: the universe in Qlib's file layout (packages/interop/README.md): the daily price
 * series' as-of values as Qlib's binary feature store (calendars/day.txt, instruments/all.txt,
 * features/<symbol>/<field>.day.bin, float32) and the EDGAR fundamentals, every vintage, as Qlib's
 * point-in-time store (financial/<symbol>/<field>_{q,a}.data/.index). Every value float32 rounds by more
 * than FLOAT32_TOLERANCE relative is counted in the manifest's warnings (FLOAT32_ROUNDING) and summary.
 */
export async function exportQlib(options: ExportOptions): Promise<ExportResult & { float32: Float32Report }> {
  const report = newFloat32Report();
  const result = await writeExport(
    options,
    { command: 'asof export qlib', writes: 'qlib-export' },
    (duck, verified, dir) => writeQlib(duck, verified, dir, options, report),
  );
  return { ...result, float32: report };
}

async function writeQlib(
  duck: Duck,
  verified: VerifiedManifest,
  dir: string,
  options: ExportOptions,
  report: Float32Report,
): Promise<Manifest> {
  const log = options.log ?? (() => {});
  const files = universeFiles(verified);
  const asOf = options.asOf ?? 'infinity';
  const series = await duck.all<{ series_id: string; frequency: string; source: string | null }>(
    `SELECT series_id, frequency, source FROM read_parquet(${quoteLiteral(files.series)}) ORDER BY series_id`,
  );
  const chosen = chooseQlibSeries(series);
  if (chosen.features.length === 0 && chosen.pit.length === 0) {
    throw new InputError(
      'QLIB_NOTHING_TO_EXPORT',
      `${verified.manifest.name}: no daily price series (…:<symbol>:open/high/low/close/volume/factor) and no EDGAR fundamentals to write in Qlib's layout (packages/interop/README.md)`,
    );
  }
  await stageUniverse(duck, files, asOf);
  await stageQlibSeries(duck, chosen.features, chosen.pit);
  const featureFiles = await writeQlibFeatures(duck, dir, chosen.features, report);
  const pit = await writeQlibPit(duck, dir, files.observations, asOf);
  const written = [...featureFiles, ...pit.files].sort((a, b) => (a.path < b.path ? -1 : 1));
  const outputs: ManifestOutput[] = [];
  for (const f of written) {
    outputs.push(
      await manifestOutput(dir, {
        ...f,
        columns: [`${f.table}:binary`],
        min_timestamp: null,
        max_timestamp: null,
        min_available_at: null,
        max_available_at: null,
      }),
    );
  }
  const warnings: Manifest['warnings'] = [...verified.manifest.warnings, ...float32Warnings(report)];
  const calendarDays = featureFiles.find((f) => f.table === 'qlib_calendar')?.rows ?? 0;
  const summary = {
    calendar_days: calendarDays,
    instruments: featureFiles.find((f) => f.table === 'qlib_instruments')?.rows ?? 0,
    feature_files: featureFiles.filter((f) => f.table === 'qlib_feature').length,
    pit_fields: pit.fields,
    pit_records: pit.records,
    float32: report,
  };
  log(
    `${summary.instruments} instruments × ${calendarDays} days: ${summary.feature_files} feature files; ${pit.fields} PIT fields, ${pit.records} records`,
  );
  for (const w of float32Warnings(report)) log(`warning ${w.code}: ${w.message}`);
  const manifest = finalizeDerivedManifest(verified.manifest, {
    suffix: 'qlib',
    kind: 'qlib-export',
    duckdbVersion: await duck.version(),
    createdBy: options.createdBy,
    config: {
      format: 'qlib',
      as_of: options.asOf ?? 'latest',
      freq: 'day',
      features: 'series <…>:<symbol>:<open|high|low|close|volume|factor>, frequency BD or D',
      pit: 'EDGAR series, every vintage; date = New York date of available_at',
      float32_tolerance: report.tolerance,
    },
    inputs: parentInputs(verified),
    outputs,
    warnings,
    summary,
  });
  writeManifest(join(dir, 'manifest.json'), manifest);
  return manifest;
}

/** The FLOAT32_ROUNDING warning when a value rounded past the tolerance, with its first examples. */
export function float32Warnings(report: Float32Report): Manifest['warnings'] {
  if (report.exceeding === 0) return [];
  const examples = report.examples
    .map(
      (e) =>
        `${e.where}: ${e.value} → ${e.float32} (${e.relative === null ? 'overflow' : `relative ${e.relative.toExponential(2)}`})`,
    )
    .join('; ');
  return [
    {
      code: 'FLOAT32_ROUNDING',
      message: `${report.exceeding} of ${report.values} values change by more than ${report.tolerance} relative as Qlib's float32 (first: ${examples}); the Nixtla export keeps float64 (packages/interop/README.md)`,
      count: report.exceeding,
    },
  ];
}
