import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PipelineConfig } from './pipeline-config.ts';
import { SOURCE_REGISTRY } from './source-registry.ts';

/** The object shape behind a source's schema: its fields and their descriptions. */
function fieldsOf(schema: unknown): Record<string, { description?: string }> {
  const shape = (schema as { shape?: Record<string, { description?: string }> }).shape;
  if (shape === undefined) throw new Error('a source schema is a zod object');
  return shape;
}

const pipelineSources = fieldsOf(PipelineConfig.shape.sources);
const pipelines = ['default', 'scale', 'us-live'].map((name) => {
  const raw = JSON.parse(readFileSync(new URL(`../../../pipelines/${name}.json`, import.meta.url), 'utf8'));
  return { name, raw, parsed: PipelineConfig.parse(raw) };
});
/** Field names whose values would be credentials if a pipeline held them. */
const SECRET_LIKE = /key|token|secret|password|user_agent|credential/i;

describe('the source registry', () => {
  it('runs the sources in the order builds always ran them (the staging order is part of the output bytes)', () => {
    expect(SOURCE_REGISTRY.map((s) => s.name)).toEqual([
      'embedded',
      'edgar',
      'fred',
      'prices',
      'fredmd',
      'rtdsm',
      'scale',
    ]);
  });

  it("registers exactly one source per key of the pipeline's sources", () => {
    const names = SOURCE_REGISTRY.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(pipelineSources).sort());
  });

  it.each(SOURCE_REGISTRY.map((s) => [s.name, s] as const))(
    '%s fulfils the Source contract',
    (name, source) => {
      expect(typeof source.ingest).toBe('function');
      expect(source.rows === undefined || source.rows === 'sink' || source.rows === 'duck').toBe(true);
      const fields = fieldsOf(source.schema);
      // Secrets name fields of the section, and every field named like a credential is declared secret.
      for (const s of source.secrets) expect(Object.keys(fields)).toContain(s);
      for (const f of Object.keys(fields)) if (SECRET_LIKE.test(f)) expect(source.secrets).toContain(f);
      // Credentials a field's description says it needs come from the environment, declared and checked up front.
      const needed = Object.values(fields).flatMap((f) => f.description?.match(/\bASOF_[A-Z_]+\b/g) ?? []);
      expect([...source.credentials].sort()).toEqual([...new Set(needed)].sort());
      if (source.credentials.length > 0) expect(typeof source.checkCredentials).toBe('function');
      // Its schema is the one the pipeline validates the section with, so both read a pipeline alike.
      const optional = pipelineSources[name] as unknown as { unwrap(): unknown };
      expect(source.schema).toBe(optional.unwrap());
      for (const p of pipelines) {
        const section = p.raw.sources[name];
        if (section !== undefined)
          expect(source.schema.parse(section)).toEqual((p.parsed.sources as Record<string, unknown>)[name]);
      }
    },
  );

  it("parses the default pipeline's sections with the registered schemas", () => {
    const dflt = pipelines.find((p) => p.name === 'default')!;
    const configured = Object.keys(dflt.raw.sources);
    expect(configured.length).toBeGreaterThan(0);
    for (const key of configured) {
      const source = SOURCE_REGISTRY.find((s) => s.name === key);
      expect(source, key).toBeDefined();
      expect(source!.schema.safeParse(dflt.raw.sources[key]).success).toBe(true);
    }
  });
});
