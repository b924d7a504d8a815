import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isoToMicros, microsToIso } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { checkManifest, verifyManifest } from '@asof/manifest';
import { InputError, type Manifest } from '@asof/schema';
import { defaultRegistry, taxonomyDocument } from '@asof/taxonomy';
import { modelPath } from '@asof/transform';
import { buildUniverse, type SummaryRow } from './build-universe.ts';
import { formatTable } from './format-table.ts';
import { loadPipeline } from './load-pipeline.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { resolveOutDir } from './resolve-out-dir.ts';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
}

export const BUILD_USAGE = 'asof build [pipeline.json] [--out DIR] [--json]';
export async function buildCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { out: { type: 'string' }, json: { type: 'boolean' } },
    BUILD_USAGE,
  );
  if (values.help) {
    io.out(
      `${BUILD_USAGE}\n\nBuilds a universe from a pipeline (default pipelines/default.json) into DIR (default out/<name>).\n`,
    );
    return 0;
  }
  const pipelinePath = resolve(io.cwd, positionals[0] ?? 'pipelines/default.json');
  const config = loadPipeline(pipelinePath);
  const outDir = resolveOutDir((values.out as string | undefined) ?? `out/${config.name}`, io.cwd);
  const result = await buildUniverse({
    config,
    outDir,
    cwd: io.cwd,
    log: (line) => io.err(`asof build: ${line}\n`),
  });
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: result.manifest.dataset_id, seconds: result.seconds, summary: result.manifest.summary, warnings: result.manifest.warnings })}\n`,
    );
  } else {
    io.out(renderSummary(result.manifest, result.manifestPath, result.seconds));
  }
  return 0;
}

export function renderSummary(manifest: Manifest, manifestPath: string, seconds: number): string {
  const s = manifest.summary as Record<string, number> & { by_scope_category_frequency: SummaryRow[] };
  const table = formatTable(
    ['scope', 'category', 'freq', 'series', 'observations', 'eval targets'],
    s.by_scope_category_frequency.map((r) => [
      r.scope,
      r.category,
      r.frequency,
      r.series,
      r.observations,
      r.eval_targets,
    ]),
  );
  const warnings = manifest.warnings.map((w) => `  ! ${w.code}: ${w.message}`).join('\n');
  return `${table}\n\n${s.series.toLocaleString('en-US')} series, ${s.observations.toLocaleString('en-US')} observations (${s.revisions.toLocaleString('en-US')} revisions), ${s.eval_targets.toLocaleString('en-US')} eval targets, ${s.tasks.toLocaleString('en-US')} tasks, ${s.corporate_actions.toLocaleString('en-US')} corporate actions\nwarnings:\n${warnings || '  none'}\ndataset_id ${manifest.dataset_id}\nmanifest   ${manifestPath}\nbuilt in ${seconds.toFixed(1)} s\n`;
}

export const VERIFY_USAGE = 'asof verify <manifest.json> [--json]';
export async function verifyCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, VERIFY_USAGE);
  if (values.help) {
    io.out(`${VERIFY_USAGE}\n\nRe-hashes every file a manifest lists; exits 1 naming each mismatch.\n`);
    return 0;
  }
  if (positionals.length !== 1)
    throw new InputError('USAGE', `expected one manifest path\n  usage: ${VERIFY_USAGE}`);
  const path = resolve(io.cwd, positionals[0]);
  const { manifest, problems } = await checkManifest(path);
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: path, dataset_id: manifest.dataset_id, ok: problems.length === 0, problems })}\n`,
    );
  } else if (problems.length === 0) {
    io.out(`ok: ${manifest.outputs.length} files match ${path} (dataset_id ${manifest.dataset_id})\n`);
  } else {
    for (const p of problems) {
      io.err(
        `asof verify: ${p.path}: ${p.problem}${p.expected !== undefined ? ` (expected ${p.expected}, got ${p.actual ?? 'nothing'})` : ''}\n`,
      );
    }
    io.err(`asof verify: ${problems.length} problem(s) in ${path}; rebuild or restore the files\n`);
  }
  return problems.length === 0 ? 0 : 1;
}

export const SHOW_USAGE = 'asof show <series_id> --data DIR [--as-of ISO] [--json]';
export async function showCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { data: { type: 'string' }, 'as-of': { type: 'string' }, json: { type: 'boolean' } },
    SHOW_USAGE,
  );
  if (values.help) {
    io.out(
      `${SHOW_USAGE}\n\nPrints the as-of view of one series: for each timestamp, what was known at --as-of (default: latest).\n`,
    );
    return 0;
  }
  if (positionals.length !== 1 || !values.data)
    throw new InputError('USAGE', `expected a series id and --data\n  usage: ${SHOW_USAGE}`);
  const dataDir = resolve(io.cwd, values.data as string);
  if (!existsSync(resolve(dataDir, 'observations'))) {
    throw new InputError(
      'DATA_NOT_FOUND',
      `--data ${values.data}: no observations/ folder there (build one with 'asof build')`,
    );
  }
  const asOfText = values['as-of'] as string | undefined;
  const asOf = asOfText === undefined ? 'infinity' : microsToIso(parseAsOf(asOfText));
  const duck = await Duck.open({ threads: 2 });
  try {
    const rows = await duck.all<Record<string, unknown>>(
      `SELECT series_id, strftime("timestamp", '%Y-%m-%dT%H:%M:%S.%fZ') AS "timestamp",
              strftime(period_start, '%Y-%m-%dT%H:%M:%S.%fZ') AS period_start,
              strftime(available_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS available_at, value, available_at_basis, source_ref
       FROM (${readFileSync(modelPath('as_of_view'), 'utf8').replace(/;\s*$/, '')})`,
      { observations_glob: `${dataDir}/observations/*/*.parquet`, series_id: positionals[0], as_of: asOf },
    );
    if (rows.length === 0) {
      const known = await duck.one<{ n: bigint }>(
        `SELECT count(*) AS n FROM read_parquet(${quoteLiteral(`${dataDir}/observations/*/*.parquet`)}) WHERE series_id = $id`,
        { id: positionals[0] },
      );
      if (Number(known.n) === 0) {
        throw new InputError(
          'UNKNOWN_SERIES',
          `series ${positionals[0]} is not in ${dataDir} (list series in series.parquet)`,
        );
      }
    }
    if (values.json) io.out(`${JSON.stringify(rows)}\n`);
    else {
      io.out(`${positionals[0]} as of ${asOfText ?? 'latest'}: ${rows.length} observations\n`);
      io.out(
        `${formatTable(
          ['timestamp', 'value', 'available_at', 'basis', 'source_ref'],
          rows.map((r) => [
            String(r.timestamp),
            Number(r.value),
            String(r.available_at),
            String(r.available_at_basis),
            String(r.source_ref),
          ]),
        )}\n`,
      );
    }
    return 0;
  } finally {
    duck.close();
  }
}

/** --as-of takes a date (end of that day UTC is NOT assumed: a bare date means 00:00 UTC) or an instant. */
function parseAsOf(text: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return isoToMicros(`${text}T00:00:00Z`, '--as-of');
  return isoToMicros(text, '--as-of');
}

export const TAXONOMY_USAGE = 'asof taxonomy [--json] [--coverage <manifest.json>]';
export async function taxonomyCommand(args: string[], io: Io): Promise<number> {
  const { values } = parseCommandArgs(
    args,
    { json: { type: 'boolean' }, coverage: { type: 'string' } },
    TAXONOMY_USAGE,
  );
  if (values.help) {
    io.out(
      `${TAXONOMY_USAGE}\n\nPrints the taxonomy registry: scopes, categories, detail categories, units, metric columns.\nWith --coverage, the FinVerse Table 4 view of a built universe: series, points and evaluation points per unit.\n`,
    );
    return 0;
  }
  if (typeof values.coverage === 'string')
    return coverage(resolve(io.cwd, values.coverage), Boolean(values.json), io);
  const doc = taxonomyDocument(defaultRegistry());
  if (values.json) {
    io.out(`${JSON.stringify(doc)}\n`);
    return 0;
  }
  io.out(
    `${formatTable(
      ['scope', 'category', 'detail category', 'freq', 'eval', 'finverse'],
      doc.units.map((u) => [
        u.scope,
        u.category,
        u.detail_category,
        u.frequency,
        u.eval_target ? 'yes' : 'no',
        u.finverse ? 'yes' : 'no',
      ]),
    )}\n`,
  );
  return 0;
}

async function coverage(manifestPath: string, json: boolean, io: Io): Promise<number> {
  const manifest = await verifyManifest(manifestPath);
  const dir = dirname(manifestPath);
  const evalStart = (manifest.config as { eval_start?: string }).eval_start ?? '2020-01-01';
  const duck = await Duck.open({ threads: 2 });
  try {
    const rows = await duck.all<Record<string, string | bigint>>(
      readFileSync(modelPath('unit_coverage'), 'utf8'),
      {
        series_file: join(dir, 'series.parquet'),
        observations_glob: `${dir}/observations/*/*.parquet`,
        eval_start: `${evalStart}T00:00:00Z`,
      },
    );
    const units = rows.map((r) => ({
      scope: String(r.scope),
      category: String(r.category),
      detail_category: String(r.detail_category),
      frequency: String(r.frequency),
      series: Number(r.series),
      points: Number(r.points),
      eval_series: Number(r.eval_series),
      eval_points: Number(r.eval_points),
    }));
    if (json)
      io.out(`${JSON.stringify({ dataset_id: manifest.dataset_id, eval_start: evalStart, units })}\n`);
    else {
      io.out(
        `${formatTable(
          ['scope', 'category', 'detail category', 'freq', 'series', 'points', 'eval series', 'eval points'],
          units.map((u) => [
            u.scope,
            u.category,
            u.detail_category,
            u.frequency,
            u.series,
            u.points,
            u.eval_series,
            u.eval_points,
          ]),
        )}\n`,
      );
    }
    return 0;
  } finally {
    duck.close();
  }
}
