import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.ts';

interface Pkg {
  name: string;
  dir: string;
  deps: string[];
  sourceImports: string[];
}

function workspacePackages(): Pkg[] {
  const root = join(REPO, 'packages');
  return readdirSync(root).map((dir) => {
    const json = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const deps = Object.keys({
      ...json.dependencies,
      ...json.devDependencies,
      ...json.peerDependencies,
    }).filter((d) => d.startsWith('@asof/'));
    const sourceImports = new Set<string>();
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.name === 'node_modules') continue;
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts')) {
          for (const m of readFileSync(p, 'utf8').matchAll(/from '(@asof\/[^'/]+)(\/[^']*)?'/g)) {
            sourceImports.add(m[2] ? `${m[1]}${m[2]}` : m[1]);
          }
        }
      }
    };
    walk(join(root, dir));
    return { name: json.name, dir, deps, sourceImports: [...sourceImports] };
  });
}

const TEST_KIT = '@asof/test-kit';

/** What a package ships, as far as the test kit is concerned. */
interface Shipped {
  name: string;
  private: boolean;
  /** `dependencies`, `peerDependencies` and `optionalDependencies`: what installing the package brings. */
  runtimeDeps: string[];
  /** Each `@asof/...` specifier in the package's shipped files (src/ without its *.test.ts, and bin/). */
  shippedImports: { file: string; spec: string }[];
}

function shippedPackages(): Shipped[] {
  const root = join(REPO, 'packages');
  return readdirSync(root).map((dir) => {
    const json = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const shippedImports: Shipped['shippedImports'] = [];
    const walk = (d: string) => {
      if (!existsSync(d)) return;
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.name === 'node_modules') continue;
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith('.test.ts')) {
          // Any string literal naming a package: static, dynamic and side-effect imports alike.
          for (const m of readFileSync(p, 'utf8').matchAll(/['"](@asof\/[^'"\s]+)['"]/g)) {
            shippedImports.push({ file: relative(REPO, p), spec: m[1] });
          }
        }
      }
    };
    walk(join(root, dir, 'src'));
    walk(join(root, dir, 'bin'));
    return {
      name: json.name,
      private: json.private === true,
      runtimeDeps: Object.keys({
        ...json.dependencies,
        ...json.peerDependencies,
        ...json.optionalDependencies,
      }),
      shippedImports,
    };
  });
}

/**
 * The test kit stays out of everything a library ships (issue 50): no package's shipped source imports it
 * and no package lists it outside `devDependencies`, and the kit itself is private. The CLI bundle is built
 * from packages/cli/src/main.ts and the @asof sources it reaches, all of them shipped files, so this keeps
 * the kit out of the bundle too. Tests, benches and scripts import it freely; a source package's
 * devDependency on it is no edge between sources (the kit's own dependencies on the sources are the kit's).
 */
export function testKitLeaks(pkgs: Shipped[]): string[] {
  const bad: string[] = [];
  const kit = pkgs.find((p) => p.name === TEST_KIT);
  if (kit === undefined) bad.push(`${TEST_KIT} is not a workspace package`);
  else if (!kit.private) bad.push(`${TEST_KIT} is not private`);
  for (const p of pkgs) {
    if (p.name === TEST_KIT) continue;
    if (p.runtimeDeps.includes(TEST_KIT))
      bad.push(`${p.name} lists ${TEST_KIT} outside devDependencies (a library must not install it)`);
    for (const i of p.shippedImports) {
      if (i.spec.split('/').slice(0, 2).join('/') === TEST_KIT)
        bad.push(`${i.file} imports ${i.spec} (only tests, benches and scripts may)`);
    }
  }
  return bad;
}

/** The allowed edges (docs/architecture.md, CONTRIBUTING.md). Returns the forbidden edges. */
export function forbiddenEdges(pkgs: Pkg[]): string[] {
  const bad: string[] = [];
  for (const p of pkgs) {
    const edges = new Set([...p.deps, ...p.sourceImports]);
    for (const e of edges) {
      if (e.split('/').length > 2) bad.push(`${p.name} → ${e} (deep import: use the package's src/index.ts)`);
      const target = e.split('/').slice(0, 2).join('/');
      if (p.name.startsWith('@asof/source-') && target.startsWith('@asof/source-') && target !== p.name) {
        bad.push(`${p.name} → ${target} (sources never depend on each other)`);
      }
      if (
        p.name === '@asof/scoring' &&
        !['@asof/schema', '@asof/manifest', '@asof/baselines', '@asof/stats'].includes(target)
      ) {
        bad.push(`${p.name} → ${target} (scoring depends only on schema, manifest, baselines and stats)`);
      }
      // The baselines are one implementation that the scorer and `asof baselines` (split) both call (issue 53
      // item 3): they build on nothing but the schema and the numerics, and the split serves them without the scorer.
      if (p.name === '@asof/baselines' && !['@asof/schema', '@asof/stats', p.name].includes(target)) {
        bad.push(`${p.name} → ${target} (baselines depend only on schema and stats)`);
      }
      // The numerics (issue 53 item 4) are arrays and numbers in, numbers out: they build on the schema's
      // errors and nothing else, so the patterns, the scorer and the baselines can all share them.
      if (p.name === '@asof/stats' && !['@asof/schema', p.name].includes(target)) {
        bad.push(`${p.name} → ${target} (stats depend only on schema)`);
      }
      if (p.name === '@asof/split' && target === '@asof/scoring') {
        bad.push(
          `${p.name} → ${target} (split does not import the scorer: its baselines are @asof/baselines')`,
        );
      }
      if (['@asof/schema'].includes(p.name) && target !== p.name)
        bad.push(`${p.name} → ${target} (schema is the root)`);
      // The CLI parses arguments, calls a library function and prints; what it calls lives in a library
      // (issue 53 item 1), so nothing builds on the command.
      if (target === '@asof/cli' && p.name !== '@asof/cli')
        bad.push(`${p.name} → ${target} (no package imports the CLI: use the library it calls)`);
    }
    for (const i of p.sourceImports) {
      const target = i.split('/').slice(0, 2).join('/');
      if (target !== p.name && !p.deps.includes(target)) {
        bad.push(`${p.name} imports ${target}, which its package.json does not declare`);
      }
    }
  }
  return bad;
}

describe('dependency direction', () => {
  it('has no forbidden edges between workspace packages', () => {
    expect(forbiddenEdges(workspacePackages())).toEqual([]);
  });

  it('catches a forbidden edge', () => {
    const pkgs: Pkg[] = [
      { name: '@asof/source-fred', dir: 'x', deps: ['@asof/source-edgar'], sourceImports: [] },
      { name: '@asof/scoring', dir: 'y', deps: ['@asof/duck'], sourceImports: ['@asof/duck'] },
      { name: '@asof/cli', dir: 'z', deps: ['@asof/duck'], sourceImports: ['@asof/duck/src/open-duck.ts'] },
      { name: '@asof/report', dir: 'w', deps: ['@asof/cli'], sourceImports: ['@asof/cli'] },
      { name: '@asof/split', dir: 'v', deps: ['@asof/scoring'], sourceImports: ['@asof/scoring'] },
      { name: '@asof/baselines', dir: 'u', deps: ['@asof/split'], sourceImports: [] },
      { name: '@asof/stats', dir: 't', deps: ['@asof/duck'], sourceImports: [] },
    ];
    const bad = forbiddenEdges(pkgs);
    expect(bad).toContain('@asof/source-fred → @asof/source-edgar (sources never depend on each other)');
    expect(bad).toContain(
      '@asof/scoring → @asof/duck (scoring depends only on schema, manifest, baselines and stats)',
    );
    expect(bad).toContain(
      "@asof/split → @asof/scoring (split does not import the scorer: its baselines are @asof/baselines')",
    );
    expect(bad).toContain('@asof/baselines → @asof/split (baselines depend only on schema and stats)');
    expect(bad).toContain('@asof/stats → @asof/duck (stats depend only on schema)');
    expect(bad.some((b) => b.includes('deep import'))).toBe(true);
    expect(bad).toContain('@asof/report → @asof/cli (no package imports the CLI: use the library it calls)');
  });

  it("keeps @asof/test-kit private and out of every library's shipped source and dependencies", () => {
    expect(testKitLeaks(shippedPackages())).toEqual([]);
  });

  it('catches a library that imports or depends on the test kit, and a public kit', () => {
    const kit = { name: TEST_KIT, private: true, runtimeDeps: ['@asof/split'], shippedImports: [] };
    const lib = (over: Partial<Shipped>): Shipped => ({
      name: '@asof/split',
      private: true,
      runtimeDeps: [],
      shippedImports: [],
      ...over,
    });
    expect(testKitLeaks([kit, lib({})])).toEqual([]);
    expect(testKitLeaks([kit, lib({ runtimeDeps: [TEST_KIT] })])).toEqual([
      '@asof/split lists @asof/test-kit outside devDependencies (a library must not install it)',
    ]);
    expect(
      testKitLeaks([
        kit,
        lib({ name: '@asof/cli', shippedImports: [{ file: 'packages/cli/bin/x.mjs', spec: TEST_KIT }] }),
      ]),
    ).toEqual(['packages/cli/bin/x.mjs imports @asof/test-kit (only tests, benches and scripts may)']);
    expect(testKitLeaks([{ ...kit, private: false }, lib({})])).toEqual(['@asof/test-kit is not private']);
    expect(testKitLeaks([lib({})])).toEqual(['@asof/test-kit is not a workspace package']);
  });
});
