import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS_DOC, errorCatalogues, errorsDocText, type PackageCatalogue } from '../scripts/errors-doc.ts';
import { REPO } from './helpers.ts';

/** Every non-test TypeScript file under packages/<name>/src, wherever a file has moved to. */
function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && e.name !== 'error-codes.ts')
        out.push(path);
    }
  };
  for (const pkg of readdirSync(join(REPO, 'packages'), { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue;
    try {
      walk(join(REPO, 'packages', pkg.name, 'src'));
    } catch {
      // a package without src/
    }
  }
  return out.sort();
}

const WORD = "'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)'";
const SNAKE = "'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'";
/**
 * Where a code is written at a throw or warning site: `code: 'X'` / `code = 'X'` (also `code ?? 'X'`); an
 * argument of a `…Error(` or `super(` call or of the helpers that take a code (`fail`, `invalid`, `bad`,
 * `warn`, `readCsv`, `assertSplitManifest`); and either branch of `? 'X_Y' : 'X_Z'` (a ternary between two
 * codes; single words are left out there, they are frequency letters and kinds such as 'D' : 'BD').
 */
const CODE_SITES = [
  new RegExp(String.raw`\bcode\??\s*[:=]\s*(?:[\w.]+\s*\?\?\s*)?${WORD}`, 'g'),
  new RegExp(
    String.raw`\b(?:\w*Error|super|fail|invalid|warn|bad|readCsv|assertSplitManifest)\(\s*[^;()]*?${WORD}`,
    'g',
  ),
  new RegExp(String.raw`\?\s*${SNAKE}\s*:\s*${SNAKE}`, 'g'),
];
/** A code built from a format's prefix, `${format.code}_RAW_DIR` (schema's pick-raw-files.ts). */
const COMPOSED = /`\$\{[\w.]+\.code\}_([A-Z0-9_]+)`/g;
/** errno names handed to Node-style errors (`fail('ENOENT')`): not asof's codes. */
const ERRNO = /^E[A-Z]+$/;

/** Each code found at a site, with the places it is used (file:line). */
function usedCodes(catalogued: ReadonlySet<string>): Map<string, string[]> {
  const used = new Map<string, string[]>();
  const add = (code: string, where: string) => used.set(code, [...(used.get(code) ?? []), where]);
  const suffixes = new Set<string>();
  for (const file of sourceFiles()) {
    const text = readFileSync(file, 'utf8');
    const at = (index: number) => `${relative(REPO, file)}:${text.slice(0, index).split('\n').length}`;
    for (const re of CODE_SITES) {
      for (const m of text.matchAll(re)) {
        for (const code of m.slice(1)) if (code !== undefined && !ERRNO.test(code)) add(code, at(m.index));
      }
    }
    for (const m of text.matchAll(COMPOSED)) suffixes.add(m[1]);
  }
  // A format's prefix (`code: 'FREDMD'`) stands for the codes composed from it, when all of them are catalogued.
  for (const [code, where] of [...used]) {
    const composed = [...suffixes].map((s) => `${code}_${s}`);
    if (!catalogued.has(code) && composed.length > 0 && composed.every((c) => catalogued.has(c))) {
      used.delete(code);
      for (const c of composed) for (const w of where) add(c, w);
    }
  }
  return used;
}

describe('docs/errors.md and the error catalogues', () => {
  it('docs/errors.md is what npm run errors writes', async () => {
    const text = errorsDocText(await errorCatalogues());
    const committed = readFileSync(ERRORS_DOC, 'utf8');
    if (committed !== text) writeFileSync(join(REPO, 'docs', 'errors-changed.md'), text);
    expect(
      committed === text,
      'docs/errors.md is stale: diff docs/errors-changed.md, then npm run errors',
    ).toBe(true);
  });

  it('every code at a throw or warning site is catalogued once, and every catalogued code is used', async () => {
    const catalogues: PackageCatalogue[] = await errorCatalogues();
    const owners = new Map<string, string[]>();
    for (const c of catalogues)
      for (const code of Object.keys(c.codes)) owners.set(code, [...(owners.get(code) ?? []), c.name]);
    const used = usedCodes(new Set(owners.keys()));
    const unknown = [...used]
      .filter(([code]) => !owners.has(code))
      .map(([code, where]) => `${code} (${where.join(', ')})`);
    const unused = [...owners]
      .filter(([code]) => !used.has(code))
      .map(([code, pkgs]) => `${code} (${pkgs.join(', ')})`);
    const twice = [...owners]
      .filter(([, pkgs]) => pkgs.length > 1)
      .map(([code, pkgs]) => `${code} (${pkgs.join(', ')})`);
    expect(unknown, "codes used but in no src/error-codes.ts: add them to their package's list").toEqual([]);
    expect(unused, 'catalogued codes no source file uses: remove them').toEqual([]);
    expect(twice, 'codes catalogued by two packages: keep one (shared codes live in @asof/schema)').toEqual(
      [],
    );
  });

  it("each package's index.ts exports its catalogue", async () => {
    for (const c of await errorCatalogues()) {
      const index = readFileSync(join(REPO, 'packages', c.dir, 'src', 'index.ts'), 'utf8');
      expect(index, `${c.name}: export * from './error-codes.ts' in src/index.ts`).toContain(
        "'./error-codes.ts'",
      );
    }
  });
});
