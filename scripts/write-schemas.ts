// Regenerates schemas/*.schema.json from the zod schemas (npm run schemas): @asof/schema's, the pipeline's
// (@asof/build composes it from the source registry), and those of @asof/scoring and @asof/runner.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipelineJsonSchema } from '@asof/build';
import { modelProtocolJsonSchema } from '@asof/runner';
import { jsonSchemas, jsonSchemaText } from '@asof/schema';
import { forecastJsonSchema, resultsJsonSchema } from '@asof/scoring';

const dir = join(import.meta.dirname, '..', 'schemas');
const all = {
  ...jsonSchemas(),
  pipeline: pipelineJsonSchema(),
  forecast: forecastJsonSchema(),
  results: resultsJsonSchema(),
  'model-protocol': modelProtocolJsonSchema(),
};
for (const [stem, schema] of Object.entries(all)) {
  const path = join(dir, `${stem}.schema.json`);
  writeFileSync(`${path}.tmp`, jsonSchemaText(schema));
  renameSync(`${path}.tmp`, path);
  console.error(`wrote ${path}`);
}
