import { existsSync, readFileSync } from 'node:fs';
import { InputError, PipelineConfig, zodInputError } from '@asof/schema';

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
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new InputError('PIPELINE_INVALID', `${path}: not valid JSON (${(cause as Error).message})`, {
      context: { file: path },
      cause,
    });
  }
  const parsed = PipelineConfig.safeParse(raw);
  if (!parsed.success) {
    throw zodInputError(
      'PIPELINE_INVALID',
      path,
      parsed.error,
      'the pipeline schema is schemas/pipeline.schema.json',
    );
  }
  return parsed.data;
}
