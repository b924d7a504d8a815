import { z } from 'zod';
import { Manifest } from './manifest.ts';
import { CorporateAction, Observation, Series } from './observation.ts';
import { PipelineConfig } from './pipeline-config.ts';

/** Every published JSON Schema, by file stem (`schemas/<stem>.schema.json`). */
export function jsonSchemas(): Record<string, unknown> {
  const schemas: Record<string, z.ZodType> = {
    observation: Observation,
    series: Series,
    'corporate-action': CorporateAction,
    pipeline: PipelineConfig,
    manifest: Manifest,
  };
  const out: Record<string, unknown> = {};
  for (const [stem, schema] of Object.entries(schemas)) {
    out[stem] = {
      $id: `https://asof.dev/schemas/${stem}.schema.json`,
      ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
    };
  }
  return out;
}

/** The exact text written to `schemas/<stem>.schema.json`. */
export function jsonSchemaText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
