import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { physicalMemoryBytes } from '@asof/duck';
import { NotRegularFileError, readRegularFile } from '@asof/output';
import {
  InputError,
  MEMORY_LIMIT_MIN,
  MEMORY_LIMIT_MIN_BYTES,
  MEMORY_LIMIT_RANGE,
  memoryLimitBytes,
  zodInputError,
} from '@asof/schema';
import { PipelineConfig } from './pipeline-config.ts';

/** Reads and validates a pipeline file; every problem is an InputError (exit 2) naming the field. */
export function loadPipeline(path: string): PipelineConfig {
  if (!existsSync(path)) {
    throw new InputError(
      'PIPELINE_NOT_FOUND',
      `${path}: no such pipeline file (see pipelines/ for examples)`,
      {
        context: { file: path },
      },
    );
  }
  let text: string;
  try {
    // A FIFO named as the pipeline would block open(2) with no signal handler able to run (audit 2.12).
    text = readRegularFile(path).toString('utf8');
  } catch (cause) {
    if (!(cause instanceof NotRegularFileError)) throw cause;
    throw new InputError(
      'PIPELINE_NOT_A_FILE',
      `${path} is not a regular file (it is ${cause.what}); pass a pipeline .json file (see pipelines/ for examples)`,
      { context: { file: path }, cause },
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new InputError('PIPELINE_INVALID', `${path}: not valid JSON (${(cause as Error).message})`, {
      context: { file: path },
      cause,
    });
  }
  const parsed = PipelineConfig.safeParse(raw);
  if (!parsed.success) {
    throw zodInputError('PIPELINE_INVALID', path, parsed.error, {
      hint: 'the pipeline schema is schemas/pipeline.schema.json',
    });
  }
  checkPipelinePaths(parsed.data, path);
  checkMemoryShare(parsed.data, path);
  return parsed.data;
}

/**
 * A share of RAM is a size only on a given machine, so the schema cannot hold it to asof's minimum: it is
 * checked here, before any work, as the size it becomes on this one.
 */
export function checkMemoryShare(
  config: PipelineConfig,
  pipelinePath: string,
  physical = physicalMemoryBytes(),
): void {
  const value = config.duckdb.memory_limit;
  if (!value.endsWith('%') || physical === 0) return;
  const bytes = memoryLimitBytes(value, physical) ?? 0;
  if (bytes >= MEMORY_LIMIT_MIN_BYTES) return;
  throw new InputError(
    'PIPELINE_INVALID',
    `${pipelinePath}: duckdb.memory_limit: ${value} of this machine's ${Math.round(physical / 1e6)}MB is ${Math.round(bytes / 1e6)}MB, below asof's minimum of ${MEMORY_LIMIT_MIN}; write ${MEMORY_LIMIT_RANGE}`,
    { context: { file: pipelinePath, field: 'duckdb.memory_limit', value, bytes } },
  );
}

/** The pipeline fields that name folders, with their values. */
function pathFields(config: PipelineConfig): [string, string | undefined][] {
  const s = config.sources;
  return [
    ['sources.embedded.real.vega_dir', s.embedded?.real?.vega_dir],
    ['sources.edgar.raw_dir', s.edgar?.raw_dir],
    ['sources.edgar.cache_dir', s.edgar?.cache_dir],
    ['sources.fred.raw_dir', s.fred?.raw_dir],
    ['sources.fred.cache_dir', s.fred?.cache_dir],
    ['sources.prices.raw_dir', s.prices?.raw_dir],
    ['sources.prices.cache_dir', s.prices?.cache_dir],
    ...(s.prices?.membership ?? []).map((f, i): [string, string] => [`sources.prices.membership[${i}]`, f]),
    ['sources.fredmd.raw_dir', s.fredmd?.raw_dir],
    ['sources.rtdsm.raw_dir', s.rtdsm?.raw_dir],
    ['duckdb.temp_directory', config.duckdb.temp_directory],
  ];
}

/**
 * A relative folder in a pipeline means a folder beside or below the pipeline file, never above it: a
 * pipeline shared with others must not reach out of its own folder by `..`. Absolute paths are taken as
 * given (a data disk, a shared cache).
 */
export function checkPipelinePaths(config: PipelineConfig, pipelinePath: string): void {
  const base = dirname(resolve(pipelinePath));
  for (const [field, value] of pathFields(config)) {
    if (value === undefined || isAbsolute(value)) continue;
    const rel = relative(base, resolve(base, value));
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new InputError(
        'PIPELINE_PATH_OUTSIDE',
        `${pipelinePath}: ${field} ${JSON.stringify(value)} leaves the pipeline's folder ${base}; relative paths resolve against the pipeline's folder and stay inside it — give an absolute path instead`,
        { context: { file: pipelinePath, field, value } },
      );
    }
  }
}
