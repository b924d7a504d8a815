import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 53 item 8: every message and help text cites only documents a user of the repository has. The
// product specification and the source papers live outside it, so "SPEC §4", "FinVerse §4.2" or "Table 2"
// in a message points nowhere; messages cite docs/glossary.md (which names the papers and their sections)
// or a decision record instead, and every docs/… path a message names must exist.
const repo = join(import.meta.dirname, '..');

/** The code lines (comments left out) of every library source file: TypeScript under src/, SQL under sql/. */
function codeLines(): { where: string; text: string }[] {
  const lines: { where: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(path);
      } else if ((e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) || e.name.endsWith('.sql')) {
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((text, i) => {
            const code = text.trim();
            if (/^(\/\/|\/\*|\*|--)/.test(code)) return;
            lines.push({ where: `${relative(repo, path)}:${i + 1}`, text });
          });
      }
    }
  };
  for (const pkg of readdirSync(join(repo, 'packages'))) {
    for (const sub of ['src', 'sql']) {
      const dir = join(repo, 'packages', pkg, sub);
      if (existsSync(dir)) walk(dir);
    }
  }
  return lines;
}

describe('messages and help texts cite documents in the repository', () => {
  const lines = codeLines();

  it('reads the library sources (a guard against scanning nothing)', () => {
    expect(lines.length).toBeGreaterThan(20_000);
    expect(lines.some((l) => l.where.startsWith('packages/cli/src/split-command.ts'))).toBe(true);
  });

  it('no message cites the specification or a paper by section or table', () => {
    const outside = lines.filter(({ text }) =>
      /\bSPEC\b(?!_)|§|\bTable \d/.test(text.replace(/\/\/.*$/, '')),
    );
    expect(outside.map((l) => `${l.where}: ${l.text.trim()}`)).toEqual([]);
  });

  it('every docs/… file a message names exists', () => {
    const missing: string[] = [];
    for (const { where, text } of lines) {
      for (const [path] of text.matchAll(/docs\/[\w./-]*\.md/g)) {
        if (!existsSync(join(repo, path))) missing.push(`${where}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
