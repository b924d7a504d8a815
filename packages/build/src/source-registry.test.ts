import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Manifest, RERUN_EVERY_UPDATE, type SourceUpdateContext } from '@asof/schema';
import type { Registry } from '@asof/taxonomy';
import { describe, expect, it } from 'vitest';
import { PipelineConfig } from './pipeline-config.ts';
import { SOURCE_REGISTRY } from './source-registry.ts';
import { planUpdate } from './update-plan.ts';

// The parity test (issue 53 item 2): every registered source fulfils the Source contract the build relies
// on, so adding a source is its package plus one registry line, and a source that breaks the contract fails
// here rather than in a build.

const REPO = new URL('../../../', import.meta.url).pathname;

/** The object shape behind a source's schema: its fields and their descriptions. */
function fieldsOf(schema: unknown): Record<string, { description?: string }> {
  const shape = (schema as { shape?: Record<string, { description?: string }> }).shape;
  if (shape === undefined) throw new Error('a source schema is a zod object');
  return shape;
}

const pipelineSources = fieldsOf(PipelineConfig.shape.sources);
const pipelines = readdirSync(join(REPO, 'pipelines'))
  .filter((f) => f.endsWith('.json'))
  .map((file) => {
    const raw = JSON.parse(readFileSync(join(REPO, 'pipelines', file), 'utf8'));
    return { file, raw, parsed: PipelineConfig.parse(raw) };
  });
/** Field names whose values would be credentials if a pipeline held them. */
const SECRET_LIKE = /key|token|secret|password|user_agent|credential/i;
const ACTIONS = ['reuse', 'rerun', 'entities'];

/** The `@asof/...` packages a package declares and its source files import. */
function packageEdges(dir: string): { name: string; edges: Set<string> } {
  const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const edges = new Set(
    Object.keys({ ...json.dependencies, ...json.devDependencies, ...json.peerDependencies }),
  );
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.ts'))
        for (const m of readFileSync(join(d, e.name), 'utf8').matchAll(/from '(@asof\/[^'/]+)/g))
          edges.add(m[1]);
    }
  };
  walk(join(dir, 'src'));
  return { name: json.name, edges };
}

/** An update context in which the raw folder is empty and OLD read nothing. */
const EMPTY_UPDATE: SourceUpdateContext = {
  sectionChanged: false,
  oldInputs: [],
  listRawDir: () => new Map(),
  hashFile: () => null,
};

describe('the source registry', () => {
  it('runs the sources in the order builds always ran them (the staging order is part of the output bytes)', () => {
    // A new source is appended, so these keep their places.
    expect(SOURCE_REGISTRY.slice(0, 7).map((s) => s.name)).toEqual([
      'embedded',
      'edgar',
      'fred',
      'prices',
      'fredmd',
      'rtdsm',
      'scale',
    ]);
  });

  it("registers exactly one source per key of the pipeline's sources, in the registry's order", () => {
    const names = SOURCE_REGISTRY.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(pipelineSources)).toEqual(names);
  });

  it('names every registered source in the "no source configured" message', () => {
    const r = PipelineConfig.safeParse({ name: 'x', sources: {} });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toContain(SOURCE_REGISTRY.map((s) => s.name).join(', '));
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
      // It parses its own example and every pipeline's section of it, as the pipeline does.
      expect(source.schema.safeParse(source.example).success).toBe(true);
      const alone = PipelineConfig.parse({ name: 'x', sources: { [name]: source.example } });
      expect((alone.sources as Record<string, unknown>)[name]).toEqual(source.schema.parse(source.example));
      for (const p of pipelines) {
        const section = p.raw.sources[name];
        if (section !== undefined)
          expect(source.schema.parse(section), p.file).toEqual(
            (p.parsed.sources as Record<string, unknown>)[name],
          );
      }
    },
  );

  it.each(SOURCE_REGISTRY.map((s) => [s.name, s] as const))(
    '%s is planned by its planUpdate, or by the generic rule (read again on every update)',
    (name, source) => {
      if (source.planUpdate !== undefined) {
        const plan = source.planUpdate(source.schema.parse(source.example), EMPTY_UPDATE);
        expect(ACTIONS).toContain(plan.action);
        return;
      }
      // Nothing outside the sources changed, so the plan is the source's alone: the generic rule.
      const config = PipelineConfig.parse({ name: 'x', sources: { [name]: source.example } });
      const old = {
        config,
        inputs: [],
        registry: [],
        created_by: { asof_version: 'v', duckdb_version: 'd' },
      } as unknown as Manifest;
      const registry = { files: [] } as unknown as Registry;
      const plan = planUpdate(old, config, { cwd: REPO, registry, asofVersion: 'v', duckdbVersion: 'd' });
      expect(plan.fullRebuild).toBeNull();
      expect(plan.sources).toEqual([{ source: name, ...RERUN_EVERY_UPDATE }]);
    },
  );

  it.each(SOURCE_REGISTRY.map((s) => [s.name] as const))(
    '%s lives in its own package, which imports no other source package',
    (name) => {
      const { name: pkg, edges } = packageEdges(join(REPO, 'packages', `source-${name}`));
      expect(pkg).toBe(`@asof/source-${name}`);
      const others = [...edges].filter((e) => e.startsWith('@asof/source-') && e !== pkg);
      expect(others).toEqual([]);
    },
  );
});
