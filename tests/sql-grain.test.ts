import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Duck, listValue, quoteIdent } from '@asof/duck';
import { readManifest } from '@asof/manifest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, REPO, SCRATCH, writeTinyPipeline } from './helpers.ts';

// Every SQL model states its grain in a `-- grain:` header (the SQL convention of issue 53 item 6).
// This test makes the header executable: each model file has one that names columns, and for the models
// whose output is a table of the universe (one Parquet file, or the partitions of one, per table: the
// manifest's `table`), the grain is unique in a small build's files. The intermediate models live only in
// the build's in-memory database; their given/expect tests are in their packages.

/** Files with no grain, each with why: they define no table of rows. */
const NO_GRAIN: Record<string, string> = {
  'packages/duck/sql/macros.sql': 'macro definitions, no table',
  'packages/transform/models/stg_tables.sql': 'DDL: the staging tables the sources fill (several statements)',
  'packages/report/sql/report_first_releases.sql':
    'one row per first release, but only its distribution is kept (source, basis, lag_s): no key column',
};

/** Every `.sql` model file: packages/<pkg>/sql/** and packages/transform/models/**. */
function modelFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.sql')) files.push(relative(REPO, p));
    }
  };
  for (const pkg of readdirSync(join(REPO, 'packages'))) {
    for (const folder of ['sql', 'models']) {
      try {
        walk(join(REPO, 'packages', pkg, folder));
      } catch {
        // no such folder
      }
    }
  }
  return files.sort();
}

/**
 * The columns a `-- grain:` header names, in order: `(a, "b", c)`, a bare `a` (prose after it explains),
 * `one row per …: (a, b)`; `one row` alone is the empty list (at most one row). null when there is no
 * header or it names no column.
 */
export function parseGrain(sql: string): string[] | null {
  const line = /^-- grain:[ \t]*(.*)$/m.exec(sql)?.[1]?.trim();
  if (line === undefined) return null;
  if (line === 'one row') return [];
  const list = (text: string) =>
    text
      .split(',')
      .map((c) => c.trim().replace(/^"(.*)"$/, '$1'))
      .filter((c) => c !== '');
  if (line.startsWith('one row per')) {
    const m = /:\s*\(([^)]*)\)/.exec(line);
    return m ? list(m[1]) : null;
  }
  if (line.startsWith('(')) {
    const m = /^\(([^)]*)\)/.exec(line);
    return m ? list(m[1]) : null;
  }
  const bare = /^"?([A-Za-z_][A-Za-z0-9_]*)"?(?=$|[\s;,—(])/.exec(line);
  return bare ? [bare[1]] : null;
}

describe('parseGrain', () => {
  it('reads the shapes the headers use', () => {
    expect(parseGrain('-- grain: (series_id, "timestamp", available_at)\nSELECT 1')).toEqual([
      'series_id',
      'timestamp',
      'available_at',
    ]);
    expect(parseGrain('-- x\n-- grain: series_key (= series_id: a key is one series text)')).toEqual([
      'series_key',
    ]);
    expect(parseGrain('-- grain: (series_key, origin) — series_key from series_keys.sql')).toEqual([
      'series_key',
      'origin',
    ]);
    expect(
      parseGrain('-- grain: one row per latest-view observation on the grid: (series_key, "timestamp"); x'),
    ).toEqual(['series_key', 'timestamp']);
    expect(parseGrain('-- grain: one row')).toEqual([]);
    expect(parseGrain('-- grain: t (the timestamp; one series)')).toEqual(['t']);
    expect(parseGrain('SELECT 1')).toBeNull();
    expect(parseGrain('-- grain: — nothing')).toBeNull();
  });
});

describe('every SQL model states its grain', () => {
  const files = modelFiles();

  it('finds the models of every SQL folder', () => {
    expect(files.length).toBeGreaterThan(80);
    expect(files).toContain('packages/transform/models/observations.sql');
    expect(files).toContain('packages/patterns/sql/segments.sql');
  });

  it('has a -- grain: header naming its columns, except the files listed with a reason', () => {
    const missing = files.filter(
      (f) => !(f in NO_GRAIN) && parseGrain(readFileSync(join(REPO, f), 'utf8')) === null,
    );
    expect(missing).toEqual([]);
    // An exemption for a file that is gone or now states a grain is stale.
    for (const f of Object.keys(NO_GRAIN)) {
      expect(files, f).toContain(f);
      expect(parseGrain(readFileSync(join(REPO, f), 'utf8')), f).toBeNull();
    }
  });
});

describe("a small build's tables are unique on their model's grain", () => {
  const work = mkdtempSync(join(SCRATCH, 'sql-grain-'));
  let duck: Duck;
  let tables: Map<string, string[]>;
  beforeAll(async () => {
    const pipeline = writeTinyPipeline(work);
    const r = await asofIn(work, 'build', pipeline, '--out', 'u');
    expect(r.code, r.stderr).toBe(0);
    const manifest = readManifest(join(work, 'u', 'manifest.json'));
    tables = new Map();
    for (const o of manifest.outputs)
      tables.set(o.table, [...(tables.get(o.table) ?? []), join(work, 'u', o.path)]);
    duck = await Duck.open({ threads: 1 });
  }, 600_000);
  afterAll(() => {
    duck?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('each table written is one model file, and no two rows share its grain', async () => {
    const byName = new Map(
      modelFiles().map(
        (f) =>
          [
            f
              .split('/')
              .pop()!
              .replace(/\.sql$/, ''),
            f,
          ] as const,
      ),
    );
    const checked: string[] = [];
    for (const [table, paths] of tables) {
      const file = byName.get(table);
      expect(file, `no model file ${table}.sql for the universe's table ${table}`).toBeDefined();
      const grain = parseGrain(readFileSync(join(REPO, file!), 'utf8'))!;
      const rows = await duck.one<{ n: bigint; dup: bigint }>(
        `SELECT count(*) AS n, count(*) - (SELECT count(*) FROM (SELECT DISTINCT ${grain.map(quoteIdent).join(', ')}
           FROM read_parquet($files, hive_partitioning = true))) AS dup
         FROM read_parquet($files, hive_partitioning = true)`,
        { files: listValue(paths) },
      );
      expect(Number(rows.dup), `${file}: ${Number(rows.dup)} rows repeat a grain (${grain.join(', ')})`).toBe(
        0,
      );
      if (Number(rows.n) > 0) checked.push(table);
    }
    // Tables with rows: the check must not pass by reading nothing.
    expect(checked).toEqual(expect.arrayContaining(['observations', 'series', 'tasks', 'segments']));
  });
});
