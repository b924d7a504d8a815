import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asofIn, REPO, SCRATCH, snapshot, writeTinyPipeline } from './helpers.ts';
import { defaultFixture } from './shared-fixtures.ts';

// Issue 52 item 7 (memory) / audit reliability-2026-12 rows 3.6, 7.1, 7.2, 15.6, 15.8: one named test per
// row, each failing on the code before the fix. Limits and maxima are explained in docs/decisions/0062.
const work = realpathSync(mkdtempSync(join(SCRATCH, 'reliability-memory-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The tiny pipeline (helpers.ts) with `change` applied, written as `name.json` in the work folder. */
function tinyWith(name: string, change: (p: Record<string, unknown>) => void): string {
  const path = writeTinyPipeline(work, name);
  const p = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  change(p);
  writeFileSync(path, JSON.stringify(p));
  return path;
}

/** The default pipeline with `duckdb.memory_limit` set to `limit`, written beside the others. */
function defaultAt(limit: string): string {
  const p = JSON.parse(readFileSync(join(REPO, 'pipelines/default.json'), 'utf8')) as Record<string, unknown>;
  delete p.$schema;
  p.duckdb = { ...(p.duckdb as object), memory_limit: limit };
  const path = join(work, `default-${limit}.json`);
  writeFileSync(path, JSON.stringify(p));
  return path;
}

/** stderr without the build's progress lines (`asof build: [1.2s] …`). */
const problems = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => !/^asof build: \[/.test(l));

describe('duckdb.memory_limit: what DuckDB accepts and asof runs at (issue 52 item 7)', () => {
  it('3.6: memory_limit "1MB" is refused before any work, exit 2, naming the field, the value and the range', async () => {
    const pipeline = tinyWith('mem1mb', (p) => {
      p.duckdb = { memory_limit: '1MB' };
    });
    const r = await run('build', pipeline, '--out', 'out/mem1mb');
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /duckdb\.memory_limit: 1MB is below asof's minimum of 64MB; write a size from 64MB to 1000TB/,
    );
    expect(r.stderr).not.toMatch(/unexpected failure|could not allocate|\n\s+at /);
    expect(r.stderr).not.toMatch(/embedded:/); // refused before the sources ran
  });

  it('15.6: memory_limit "999999TB" is refused at validation, exit 2, naming the field and the maximum', async () => {
    const pipeline = tinyWith('memhuge', (p) => {
      p.duckdb = { memory_limit: '999999TB' };
    });
    const r = await run('build', pipeline, '--out', 'out/memhuge');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/duckdb\.memory_limit: 999999TB is above asof's maximum of 1000TB/);
    expect(r.stderr).not.toMatch(/unexpected failure|pib|\n\s+at /i);
  });

  it('15.6: the largest limits accepted, "1000TB" and "100%" of RAM, build (the block pool stays within 80% of RAM)', async () => {
    for (const [i, limit] of ['1000TB', '100%'].entries()) {
      const pipeline = tinyWith(`memtop${i}`, (p) => {
        p.duckdb = { memory_limit: limit };
      });
      const r = await run('build', pipeline, '--out', `out/memtop${i}`);
      expect(r.code, `${limit}: ${r.stderr}`).toBe(0);
      expect(r.stderr).not.toMatch(/unexpected failure/);
      // Above the machine's RAM is allowed, with a warning; a share of it never is above.
      if (limit === '1000TB')
        expect(r.stderr).toMatch(
          /warning: duckdb\.memory_limit 1000TB is more than this machine's \d+MB of RAM/,
        );
      else expect(r.stderr).not.toMatch(/warning: duckdb\.memory_limit/);
    }
  });

  it('7.1: running out of memory is one line naming duckdb.memory_limit, its value and a next: hint, exit 1', async () => {
    // The default universe at 100MB: above asof's minimum, below what its segments need.
    const r = await run('build', defaultAt('100MB'), '--out', 'out/default-100');
    expect(r.code, r.stderr).toBe(1);
    const lines = problems(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^asof build: DuckDB ran out of memory at duckdb\.memory_limit "100MB" in .*default-100MB\.json \(.*\); next: raise duckdb\.memory_limit \(at least 64MB; the default universe builds at 200MB/,
    );
    expect(r.stderr).not.toMatch(/SET threads|SET memory_limit|Possible solutions|unexpected failure/);
  });

  it('7.2: the default universe builds at memory_limit "200MB", every file byte-identical to the default build', async () => {
    const reference = await defaultFixture();
    const r = await run('build', defaultAt('200MB'), '--out', 'out/default-200');
    expect(r.code, r.stderr).toBe(0);
    // The manifest differs only by the configured limit (part of the hashed config); the data files may not.
    const files = (dir: string) => {
      const { 'manifest.json': manifest, ...rest } = snapshot(dir);
      expect(manifest).toBeDefined();
      return rest;
    };
    const built = files(join(work, 'out/default-200'));
    expect(Object.keys(built).length).toBeGreaterThan(10);
    expect(built).toEqual(files(reference.universe));
  });
});

describe('synthetic sources within memory (issue 52 item 7)', () => {
  it('15.8: EDGAR synthetic at 100,000 companies × 100 fiscal years is refused at validation, exit 2, naming the bound', async () => {
    const pipeline = tinyWith('edgarmax', (p) => {
      p.sources = {
        edgar: { synthetic: { seed: 1, companies: 100_000, first_fiscal_year: 1990, fiscal_years: 100 } },
      };
    });
    const r = await run('build', pipeline, '--out', 'out/edgarmax');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toMatch(/sources\.edgar\.synthetic\.companies: .*at most/);
    expect(r.stderr).not.toMatch(/heap|unexpected failure|\n\s+at /);
  });

  it('15.8: FRED synthetic at its maximum count over 100 years is refused at validation, exit 2, naming the bound', async () => {
    const pipeline = tinyWith('fredmax', (p) => {
      p.sources = { fred: { synthetic: { seed: 1, start: '1926-01-01', end: '2025-12-31', count: 10_000 } } };
    });
    const r = await run('build', pipeline, '--out', 'out/fredmax');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')[0]).toMatch(
      /sources\.fred\.synthetic\.count: count × calendar years of 1926-01-01 … 2025-12-31 is 10,000 × 100 = 1,000,000 series-years, above the 500,000/,
    );
    expect(r.stderr).not.toMatch(/heap|unexpected failure|\n\s+at /);
  });
});
