import { dirname, resolve } from 'node:path';
import { buildUniverse, PipelineConfig } from '@asof/build';
import { InputError, zodInputError } from '@asof/schema';
import { type Io, renderSummary, shown } from './commands.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { pipelineFieldsHelp } from './pipeline-fields-help.ts';

/** The sources `asof ingest` reads, as the pipeline names them. */
export const INGEST_SOURCES = ['edgar', 'fred', 'prices', 'fredmd', 'rtdsm'] as const;

export const INGEST_USAGE =
  'asof ingest <edgar|fred|prices|fredmd|rtdsm> (--raw-dir DIR [--vintage YYYY-MM] | --tickers A,B | --series GDP,CPIAUCSL | --catalog [--allow-partial] | --symbols A,B) [--out DIR] [--offline] [--json] [--verbose]';

/**
 * One source into the atomic tables: the same build as `asof build`, with a pipeline made of just that
 * source. Offline replay (`--raw-dir`) and the live path share the source's parser.
 */
export async function ingestCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      'raw-dir': { type: 'string' },
      tickers: { type: 'string' },
      series: { type: 'string' },
      catalog: { type: 'boolean' },
      'allow-partial': { type: 'boolean' },
      symbols: { type: 'string' },
      out: { type: 'string' },
      offline: { type: 'boolean' },
      vintage: { type: 'string' },
      'total-return': { type: 'boolean' },
      json: { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
    INGEST_USAGE,
  );
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v.help) {
    io.out(
      `${INGEST_USAGE}\n\nReads one source into out/ingest-<source> (observations, series, corporate actions, manifest).\nLive EDGAR needs ASOF_SEC_USER_AGENT; live FRED needs ASOF_FRED_API_KEY.\nA --catalog run fails if any series fails, unless --allow-partial (then at most half may fail; they are listed as warnings).\nPrints what was done with each input file (records read, mapped, dropped by reason); --verbose lists every file and warning.\n\nThe same source in a pipeline (asof build), with its fields:\n${pipelineFieldsHelp(INGEST_SOURCES)}\n`,
    );
    return 0;
  }
  const source = parsed.positionals[0];
  const list = (x: unknown) =>
    typeof x === 'string'
      ? x
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : undefined;
  const rawDir = v['raw-dir'] as string | undefined;
  let block: Record<string, unknown>;
  switch (source) {
    case 'edgar':
      block = { raw_dir: rawDir, tickers: list(v.tickers), offline: v.offline };
      break;
    case 'fred':
      block = {
        raw_dir: rawDir,
        series: list(v.series),
        catalog: v.catalog,
        allow_partial: v['allow-partial'],
        offline: v.offline,
      };
      break;
    case 'prices':
      block = { raw_dir: rawDir, symbols: list(v.symbols), total_return: v['total-return'] };
      break;
    case 'fredmd':
      block = { raw_dir: rawDir, vintage: v.vintage };
      break;
    case 'rtdsm':
      block = { raw_dir: rawDir };
      break;
    default:
      throw new InputError(
        'USAGE',
        `unknown source ${JSON.stringify(source ?? null)}; one of ${INGEST_SOURCES.join(', ')}\n  usage: ${INGEST_USAGE}`,
      );
  }
  if (v.vintage !== undefined && source !== 'fredmd') {
    throw new InputError('USAGE', `--vintage applies to asof ingest fredmd only\n  usage: ${INGEST_USAGE}`);
  }
  if (v['allow-partial'] && !(source === 'fred' && v.catalog)) {
    throw new InputError(
      'USAGE',
      `--allow-partial applies to asof ingest fred --catalog only\n  usage: ${INGEST_USAGE}`,
    );
  }
  const given = Object.entries(block).filter(
    ([k, x]) =>
      x !== undefined &&
      x !== false &&
      k !== 'offline' &&
      k !== 'total_return' &&
      k !== 'allow_partial' &&
      k !== 'vintage',
  );
  if (given.length === 0)
    throw new InputError('USAGE', `say what to read: --raw-dir, or a live list\n  usage: ${INGEST_USAGE}`);
  const candidate = { name: `ingest-${source}`, sources: { [source]: block } };
  const config = PipelineConfig.safeParse(JSON.parse(JSON.stringify(candidate)));
  if (!config.success) throw zodInputError('USAGE', `asof ingest ${source}`, config.error);
  const outDir = resolve(io.cwd, (v.out as string | undefined) ?? `out/ingest-${source}`);
  const result = await buildUniverse({
    config: config.data,
    outDir,
    cwd: resolve(io.cwd),
    log: (line) => io.err(`asof ingest: ${line}\n`),
  });
  if (v.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: result.manifest.dataset_id, summary: result.manifest.summary, warnings: result.manifest.warnings })}\n`,
    );
  } else
    io.out(
      renderSummary(result.manifest, result.manifestPath, result.seconds, { verbose: v.verbose === true }),
    );
  nextHint(io, `asof series --data ${shown(io, dirname(result.manifestPath))}`);
  return 0;
}
