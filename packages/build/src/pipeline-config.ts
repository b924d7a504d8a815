import {
  DEFAULT_UNIVERSE_MEMORY_LIMIT,
  IsoDate,
  jsonSchemaOf,
  MEMORY_LIMIT_RANGE,
  memoryLimitProblem,
} from '@asof/schema';
import { z } from 'zod';
import { REGISTERED_SOURCES, type RegisteredSource } from './source-registry.ts';

/** The pipeline's `sources` block: each registered source's section, optional, under its name. */
type SourceSections = { [S in RegisteredSource as S['name']]: z.ZodOptional<S['schema']> };

/**
 * The `sources` block's fields, composed from the registry: its order is the keys' order (and so the
 * published JSON Schema's), each section parsed by the schema the source itself runs with.
 */
function sourceSections(): SourceSections {
  const shape: Record<string, z.ZodOptional> = {};
  for (const source of REGISTERED_SOURCES) shape[source.name] = source.schema.optional();
  return shape as SourceSections;
}

const SOURCE_NAMES = REGISTERED_SOURCES.map((s) => s.name).join(', ');

// What DuckDB's memory_limit takes (a size with a unit; checked against the pinned DuckDB) within the range
// asof runs in, plus the share of physical memory that @asof/duck turns into a size (memory-limit.ts).
function checkMemoryLimit(ctx: z.core.ParsePayload<string>): void {
  const problem = memoryLimitProblem(ctx.value);
  if (problem !== null) {
    ctx.issues.push({ code: 'custom', input: ctx.value, message: `${problem}; write ${MEMORY_LIMIT_RANGE}` });
  }
}

export const PipelineConfig = z
  .object({
    $schema: z.string().optional(),
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and dashes'),
    description: z.string().optional(),
    eval_start: IsoDate.default('2020-01-01').describe(
      'first evaluation origin date (docs/glossary.md: eval_start)',
    ),
    duckdb: z
      .object({
        threads: z.number().int().min(1).max(256).default(2),
        memory_limit: z
          .string()
          .check(checkMemoryLimit)
          .default('60%')
          .describe(
            `DuckDB memory_limit: ${MEMORY_LIMIT_RANGE}; the default universe builds at ${DEFAULT_UNIVERSE_MEMORY_LIMIT}`,
          ),
        temp_directory: z.string().optional().describe('where DuckDB spills when over the memory limit'),
        storage: z
          .enum(['memory', 'file'])
          .optional()
          .describe(
            "where the build's working tables live: 'memory' (default) or 'file', a temporary DuckDB database file beside the spill folder, removed after the build. DuckDB compresses tables on disk (about 6x for observations), so at FinVerse scale the working set fits the memory limit instead of spilling uncompressed",
          ),
      })
      .strict()
      .default({ threads: 2, memory_limit: '60%' }),
    sources: z
      .object(sourceSections())
      .strict()
      .check((ctx) => {
        if (Object.values(ctx.value).every((v) => v === undefined)) {
          ctx.issues.push({
            code: 'custom',
            input: ctx.value,
            message: `no source configured, so the build would be empty; add at least one of ${SOURCE_NAMES} (see pipelines/default.json)`,
          });
        }
      }),
  })
  .strict();
export type PipelineConfig = z.infer<typeof PipelineConfig>;
export type PipelineInput = z.input<typeof PipelineConfig>;

/** The JSON Schema of a pipeline file, published as `schemas/pipeline.schema.json`. */
export function pipelineJsonSchema(): Record<string, unknown> {
  return jsonSchemaOf('pipeline', PipelineConfig);
}
