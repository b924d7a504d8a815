import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** The allowed-edge rules of SPEC §2. Returns the forbidden edges. */
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
      if (p.name === '@asof/scoring' && !['@asof/schema', '@asof/manifest'].includes(target)) {
        bad.push(`${p.name} → ${target} (scoring depends only on schema and manifest)`);
      }
      if (['@asof/schema'].includes(p.name) && target !== p.name)
        bad.push(`${p.name} → ${target} (schema is the root)`);
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
    ];
    const bad = forbiddenEdges(pkgs);
    expect(bad).toContain('@asof/source-fred → @asof/source-edgar (sources never depend on each other)');
    expect(bad).toContain('@asof/scoring → @asof/duck (scoring depends only on schema and manifest)');
    expect(bad.some((b) => b.includes('deep import'))).toBe(true);
  });
});
