// Regenerates schemas/*.schema.json from the zod schemas in @asof/schema (npm run schemas).
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSchemas, jsonSchemaText } from '@asof/schema';

const dir = join(import.meta.dirname, '..', 'schemas');
for (const [stem, schema] of Object.entries(jsonSchemas())) {
  const path = join(dir, `${stem}.schema.json`);
  writeFileSync(`${path}.tmp`, jsonSchemaText(schema));
  renameSync(`${path}.tmp`, path);
  console.error(`wrote ${path}`);
}
