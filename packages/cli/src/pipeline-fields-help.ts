import { pipelineJsonSchema } from '@asof/build';

interface JsonNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonNode>;
  items?: JsonNode;
}

/** A field's type as a reader types it: `string`, `string[]`, `{…}`. */
function typeOf(node: JsonNode): string {
  if (node.properties) return '{…}';
  if (node.type === 'array') return `${node.items ? typeOf(node.items) : 'value'}[]`;
  return Array.isArray(node.type) ? node.type.join('|') : (node.type ?? 'value');
}

/**
 * The pipeline fields of the named sources (all when none), one line each with type, default and the
 * schema's own description: written from the zod schema, so `--help` cannot drift from what is accepted.
 */
export function pipelineFieldsHelp(only?: readonly string[]): string {
  const pipeline = pipelineJsonSchema() as JsonNode;
  const sources = pipeline.properties?.sources?.properties ?? {};
  const lines: string[] = [];
  for (const [name, block] of Object.entries(sources)) {
    if (only !== undefined && !only.includes(name)) continue;
    lines.push(`  sources.${name}`);
    for (const [field, node] of Object.entries(block.properties ?? {})) {
      const def = node.default === undefined ? '' : ` = ${JSON.stringify(node.default)}`;
      const about = node.description ? `  ${node.description}` : '';
      lines.push(`    ${field} (${typeOf(node)}${def})${about}`);
    }
  }
  return lines.join('\n');
}
