import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipelineJsonSchema } from '@asof/build';
import { modelProtocolJsonSchema } from '@asof/runner';
import { jsonSchemas, jsonSchemaText } from '@asof/schema';
import { forecastJsonSchema, resultsJsonSchema } from '@asof/scoring';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.ts';

describe('schemas/', () => {
  it('holds exactly the JSON Schemas generated from the zod schemas (run npm run schemas)', () => {
    const generated: Record<string, unknown> = {
      ...jsonSchemas(),
      pipeline: pipelineJsonSchema(),
      forecast: forecastJsonSchema(),
      results: resultsJsonSchema(),
      'model-protocol': modelProtocolJsonSchema(),
    };
    const files = readdirSync(join(REPO, 'schemas'))
      .filter((f) => f.endsWith('.schema.json'))
      .sort();
    expect(files).toEqual(
      Object.keys(generated)
        .map((s) => `${s}.schema.json`)
        .sort(),
    );
    for (const [stem, schema] of Object.entries(generated)) {
      expect(
        readFileSync(join(REPO, 'schemas', `${stem}.schema.json`), 'utf8'),
        `${stem} is stale: npm run schemas`,
      ).toBe(jsonSchemaText(schema));
    }
  });
});
