import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildUniverse, loadPipeline, type SummaryRow } from '@asof/build';
import { isoToMicros, microsToIso, periodLabel } from '@asof/calendar';
import { Duck, listValue, loadQuery } from '@asof/duck';
import { checkManifest, withVerifiedManifest } from '@asof/manifest';
import {
  type IngestAccounting,
  InputError,
  type Manifest,
  requireKnownNames,
  shownValue,
} from '@asof/schema';
import { defaultRegistry, taxonomyDocument } from '@asof/taxonomy';
import { MODELS_DIR, modelSql } from '@asof/transform';
import { formatAccounting, formatWarnings } from './format-accounting.ts';
import { formatTable } from './format-table.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { pipelineFieldsHelp } from './pipeline-fields-help.ts';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  cwd: string;
}

export const BUILD_USAGE = 'asof build [pipeline.json] [--out DIR] [--json] [--verbose]';
export async function buildCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { out: { type: 'string' }, json: { type: 'boolean' }, verbose: { type: 'boolean' } },
    BUILD_USAGE,
  );
  if (values.help) {
    io.out(
      `${BUILD_USAGE}\n\nBuilds a universe from a pipeline (default pipelines/default.json) into DIR (default out/<name>).\nPrints what each source did with each input file (records read, mapped, dropped by reason) and the\nwarnings grouped by code; --verbose lists every file and every warning (the manifest holds them all).\n\nPipeline fields (schemas/pipeline.schema.json; paths are relative to the pipeline file):\n${pipelineFieldsHelp()}\n`,
    );
    return 0;
  }
  const pipelinePath = resolve(io.cwd, positionals[0] ?? 'pipelines/default.json');
  const config = loadPipeline(pipelinePath);
  const outDir = resolve(io.cwd, (values.out as string | undefined) ?? `out/${config.name}`);
  const result = await buildUniverse({
    config,
    outDir,
    cwd: dirname(pipelinePath),
    cacheRoot: io.cwd,
    inputs: [pipelinePath],
    pipelineFile: pipelinePath,
    pipelineLabel: positionals[0] ?? 'pipelines/default.json',
    log: (line) => io.err(`asof build: ${line}\n`),
  });
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: result.manifest.dataset_id, seconds: result.seconds, summary: result.manifest.summary, warnings: result.manifest.warnings })}\n`,
    );
  } else {
    io.out(
      renderSummary(result.manifest, result.manifestPath, result.seconds, {
        verbose: values.verbose === true,
      }),
    );
  }
  nextHint(io, `asof series --data ${shown(io, dirname(result.manifestPath))} --search cpi`);
  return 0;
}

/** A path as a user would type it: relative to the working directory when it lies below it. */
export function shown(io: Io, path: string): string {
  const rel = relative(io.cwd, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

export function renderSummary(
  manifest: Manifest,
  manifestPath: string,
  seconds: number,
  options: { verbose?: boolean } = {},
): string {
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
  const warnings = formatWarnings(manifest.warnings, options.verbose === true);
  const entries = (manifest.summary as { ingest_accounting?: IngestAccounting[] }).ingest_accounting ?? [];
  const accounting =
    entries.length > 0
      ? `records per input file:\n${formatAccounting(entries, options.verbose === true)}\n\n`
      : '';
  return `${table}\n\n${accounting}${s.series.toLocaleString('en-US')} series, ${s.observations.toLocaleString('en-US')} observations (${s.revisions.toLocaleString('en-US')} revisions), ${s.eval_targets.toLocaleString('en-US')} eval targets, ${s.tasks.toLocaleString('en-US')} tasks, ${s.corporate_actions.toLocaleString('en-US')} corporate actions\nwarnings:\n${warnings}\ndataset_id ${manifest.dataset_id}\nmanifest   ${manifestPath}\nbuilt in ${seconds.toFixed(1)} s\n`;
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
  const { manifest, problems } = await checkManifest(path, { unlisted: true });
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: path, dataset_id: manifest.dataset_id, ok: problems.length === 0, problems })}\n`,
    );
  } else if (problems.length === 0) {
    io.out(`ok: ${manifest.outputs.length} files match ${path} (dataset_id ${manifest.dataset_id})\n`);
  } else {
    for (const p of problems) {
      io.err(
        `asof verify: ${p.path}: ${p.problem}${p.expected !== undefined ? ` (expected ${p.expected}, got ${p.actual ?? 'nothing'})` : p.actual !== undefined ? ` (it is ${p.actual})` : ''}\n`,
      );
    }
    io.err(`asof verify: ${problems.length} problem(s) in ${path}; rebuild or restore the files\n`);
  }
  if (problems.length === 0) {
    const dir = shown(io, dirname(path));
    nextHint(
      io,
      manifest.kind === 'split'
        ? `asof baselines --manifest ${join(dir, 'manifest.json')} --out ${dir}-baselines.parquet`
        : manifest.kind === 'universe'
          ? `asof series --data ${dir}`
          : manifest.kind === 'scores'
            ? `cat ${join(dir, 'leaderboard.md')}`
            : `asof report --manifest ${join(dir, 'manifest.json')} --out ${dir}-report.html`,
    );
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
  const manifestPath = universeManifestOf(dataDir, values.data as string, '--data');
  const asOfText = values['as-of'] as string | undefined;
  const asOf = asOfText === undefined ? 'infinity' : microsToIso(parseAsOf(asOfText));
  const seriesId = positionals[0];
  const { rows, frequency, fiscalYearEnd } = await withVerifiedManifest(manifestPath, async (verified) => {
    requireUniverse(verified.manifest, manifestPath, 'asof show');
    const files = listValue(verified.readPaths('observations'));
    const duck = await Duck.open({ threads: 2 });
    try {
      const meta = await duck.all<{ frequency: string; fiscal_year_end: string | null }>(
        'SELECT frequency, fiscal_year_end FROM read_parquet($file) WHERE series_id = $id',
        { file: verified.readPaths('series')[0], id: seriesId },
      );
      if (meta.length === 0) {
        const ids = await duck.all<{ series_id: string }>(
          'SELECT series_id FROM read_parquet($file) ORDER BY series_id',
          { file: verified.readPaths('series')[0] },
        );
        requireKnownNames(
          [seriesId],
          ids.map((r) => r.series_id),
          {
            flag: 'series',
            kind: 'series',
            where: String(values.data),
            code: 'UNKNOWN_SERIES',
            listHint: `list series with 'asof series --data ${values.data} --search TEXT'`,
          },
        );
      }
      const found = await duck.all<Record<string, unknown>>(
        `SELECT series_id, epoch_us("timestamp") AS ts, iso_instant("timestamp") AS "timestamp",
                iso_instant(period_start) AS period_start,
                iso_instant(available_at) AS available_at, value, available_at_basis, source_ref
         FROM (${loadQuery(MODELS_DIR, 'as_of_view')})`,
        { observation_files: files, series_id: seriesId, as_of: asOf },
      );
      return { rows: found, frequency: meta[0].frequency, fiscalYearEnd: meta[0].fiscal_year_end };
    } finally {
      duck.close();
    }
  });
  // Each row's period in the series' own terms (2019-12, 2019Q4, FY2019, 2020-03-04) beside the UTC instants.
  const labelled: Record<string, unknown>[] = rows.map(({ ts, ...r }) => ({
    period: periodLabel(Number(ts), frequency, fiscalYearEnd),
    ...r,
  }));
  if (values.json) io.out(`${JSON.stringify(labelled)}\n`);
  else {
    io.out(`${seriesId} as of ${asOfText ?? 'latest'}: ${rows.length} observations\n`);
    io.out(
      `${formatTable(
        ['period', 'timestamp', 'value', 'available_at', 'basis', 'source_ref'],
        labelled.map((r) => [
          String(r.period),
          String(r.timestamp),
          Number(r.value),
          String(r.available_at),
          String(r.available_at_basis),
          String(r.source_ref),
        ]),
      )}\n`,
    );
  }
  nextHint(
    io,
    asOfText === undefined
      ? `asof show ${seriesId} --data ${values.data} --as-of 2020-06-01   (what was known then)`
      : `asof split --manifest ${join(values.data as string, 'manifest.json')} --model-cutoff ${asOfText} --run-date 2024-12-31`,
  );
  return 0;
}

/**
 * The manifest of a `--data` folder: a folder (never a glob or a file) holding an asof manifest.json.
 */
export function universeManifestOf(dataDir: string, given: string, flag: string): string {
  const hint = "pass the folder of a universe built with 'asof build', e.g. out/default";
  if (/[*?[\]{}]/.test(given)) {
    throw new InputError('DATA_NOT_A_FOLDER', `${flag} ${given}: a glob is not accepted; ${hint}`, {
      context: { value: given },
    });
  }
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
    throw new InputError(
      'DATA_NOT_FOUND',
      `${flag} ${given}: ${existsSync(dataDir) ? 'not a folder' : 'no such folder'}; ${hint}`,
      { context: { value: given } },
    );
  }
  const manifestPath = join(dataDir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new InputError('DATA_NOT_FOUND', `${flag} ${given}: no manifest.json there; ${hint}`, {
      context: { value: given },
    });
  }
  return manifestPath;
}

/** Refuses a manifest that is not a universe's (a split, an export) for a command that reads universes. */
export function requireUniverse(manifest: Manifest, path: string, command: string): void {
  if (manifest.kind !== 'universe') {
    throw new InputError(
      'NOT_A_UNIVERSE',
      `${path}: manifest kind is '${manifest.kind}'; ${command} reads a universe built with 'asof build' (for a split, pass its parent universe${manifest.parent_dataset_id ? `, dataset_id ${manifest.parent_dataset_id.slice(0, 12)}…` : ''})`,
      { context: { file: path, value: manifest.kind } },
    );
  }
  // A universe manifest that lists no series file (hand-edited, or re-hashed after a file was dropped) is
  // refused by name, before a reader is handed nothing to read (audit 3.27).
  if (!manifest.outputs.some((o) => o.table === 'series')) {
    throw new InputError(
      'UNIVERSE_NO_SERIES_FILE',
      `${path}: lists no series file (series.parquet), expected 1; ${command} reads a universe's series table\n  hint: rebuild the universe with 'asof build', or restore its manifest.json`,
      { context: { file: path, field: 'outputs', value: 'series' } },
    );
  }
}

/** --as-of takes a date (end of that day UTC is NOT assumed: a bare date means 00:00 UTC) or an instant. */
function parseAsOf(text: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return isoToMicros(`${text}T00:00:00Z`, '--as-of');
  return isoToMicros(text, '--as-of');
}

export const TAXONOMY_USAGE = 'asof taxonomy [NAME] [--json] [--coverage <manifest.json>]';

/** A unit's names that `asof taxonomy NAME` looks for (case-insensitively), and its S/C/D/F path. */
function unitNames(u: { scope: string; category: string; detail_category: string; frequency: string }) {
  return [
    u.scope,
    u.category,
    u.detail_category,
    `${u.scope}/${u.category}/${u.detail_category}/${u.frequency}`,
  ];
}

/**
 * The filter of `asof taxonomy NAME`: units whose scope, category, detail category or full S/C/D/F path is
 * NAME (any case). A name the registry does not have is refused with the nearest names before any work.
 */
function taxonomyFilter(
  name: string | undefined,
): (u: { scope: string; category: string; detail_category: string; frequency: string }) => boolean {
  if (name === undefined) return () => true;
  const units = taxonomyDocument(defaultRegistry()).units;
  const names = [...new Set(units.flatMap(unitNames))];
  const lower = name.toLowerCase();
  requireKnownNames(names.some((n) => n.toLowerCase() === lower) ? [] : [name], names, {
    flag: 'name',
    kind: 'scope, category, detail category or unit',
    where: 'the taxonomy registry',
    code: 'TAXONOMY_NAME_UNKNOWN',
    listHint: "'asof taxonomy' lists every unit; a unit is Scope/Category/Detail category/Frequency",
  });
  return (u) => unitNames(u).some((n) => n.toLowerCase() === lower);
}

export async function taxonomyCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { json: { type: 'boolean' }, coverage: { type: 'string' } },
    TAXONOMY_USAGE,
  );
  if (values.help) {
    io.out(
      `${TAXONOMY_USAGE}\n\nPrints the taxonomy registry: scopes, categories, detail categories, units, metric columns.\nNAME keeps the units of one scope, category, detail category or unit (any case), e.g. 'asof taxonomy Inflation'.\nWith --coverage, FinVerse's coverage view of a built universe (docs/glossary.md): series, points and evaluation points per unit.\n`,
    );
    return 0;
  }
  if (positionals.length > 1)
    throw new InputError(
      'USAGE',
      `expected at most one NAME, got ${positionals.length}: ${positionals.map((p) => shownValue(p)).join(' ')}\n  usage: ${TAXONOMY_USAGE}`,
    );
  const keep = taxonomyFilter(positionals[0]);
  if (typeof values.coverage === 'string')
    return coverage(resolve(io.cwd, values.coverage), Boolean(values.json), io, keep);
  const full = taxonomyDocument(defaultRegistry());
  const doc = positionals[0] === undefined ? full : { ...full, units: full.units.filter(keep) };
  if (values.json) {
    io.out(`${JSON.stringify(doc)}\n`);
    nextHint(io, 'asof taxonomy --coverage out/default/manifest.json');
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
  nextHint(io, 'asof taxonomy --coverage out/default/manifest.json');
  return 0;
}

async function coverage(
  manifestPath: string,
  json: boolean,
  io: Io,
  keep: (u: { scope: string; category: string; detail_category: string; frequency: string }) => boolean,
): Promise<number> {
  const { manifest, rows, evalStart } = await withVerifiedManifest(manifestPath, async (verified) => {
    requireUniverse(verified.manifest, manifestPath, 'asof taxonomy --coverage');
    const evalStart = (verified.manifest.config as { eval_start?: string }).eval_start ?? '2020-01-01';
    const duck = await Duck.open({ threads: 2 });
    try {
      const rows = await duck.all<Record<string, string | bigint>>(modelSql('unit_coverage'), {
        series_file: verified.readPaths('series')[0],
        observation_files: listValue(verified.readPaths('observations')),
        eval_start: `${evalStart}T00:00:00Z`,
      });
      return { manifest: verified.manifest, rows, evalStart };
    } finally {
      duck.close();
    }
  });
  {
    const units = rows
      .map((r) => ({
        scope: String(r.scope),
        category: String(r.category),
        detail_category: String(r.detail_category),
        frequency: String(r.frequency),
        series: Number(r.series),
        points: Number(r.points),
        eval_series: Number(r.eval_series),
        eval_points: Number(r.eval_points),
      }))
      .filter(keep);
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
    nextHint(io, `asof series --data ${shown(io, dirname(manifestPath))} --eval`);
    return 0;
  }
}
