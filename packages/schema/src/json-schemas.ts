import { z } from 'zod';
import { Manifest } from './manifest.ts';
import { CorporateAction, Observation, Series } from './observation.ts';

/**
 * The published JSON Schemas of this package's zod schemas, by file stem (`schemas/<stem>.schema.json`). The
 * pipeline's is @asof/build's `pipelineJsonSchema()`: its `sources` are composed from the source registry.
 */
export function jsonSchemas(): Record<string, unknown> {
  const schemas: Record<string, z.ZodType> = {
    observation: Observation,
    series: Series,
    'corporate-action': CorporateAction,
    manifest: Manifest,
  };
  const out: Record<string, unknown> = {};
  for (const [stem, schema] of Object.entries(schemas)) out[stem] = jsonSchemaOf(stem, schema);
  return out;
}

/** The JSON Schema published as `schemas/<stem>.schema.json` for a zod schema (what a pipeline file is given). */
export function jsonSchemaOf(stem: string, schema: z.ZodType): Record<string, unknown> {
  return {
    $id: `https://asof.dev/schemas/${stem}.schema.json`,
    ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
  };
}

/** The exact text written to `schemas/<stem>.schema.json`. */
export function jsonSchemaText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
