import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadQuery, loadSql, runSqlFile } from './load-sql.ts';
import { Duck } from './open-duck.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-load-sql-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const folder = pathToFileURL(`${dir}/`);

describe('loadSql', () => {
  it('returns the text as written, read once per process', () => {
    writeFileSync(join(dir, 'model_a.sql'), '-- grain: x\nSELECT 1 AS x;\n');
    expect(loadSql(folder, 'model_a')).toBe('-- grain: x\nSELECT 1 AS x;\n');
    writeFileSync(join(dir, 'model_a.sql'), 'SELECT 2 AS x;\n');
    expect(loadSql(folder, 'model_a')).toBe('-- grain: x\nSELECT 1 AS x;\n');
  });

  it('gives a query to embed without its closing semicolon', () => {
    writeFileSync(join(dir, 'model_b.sql'), '\n-- grain: x\nSELECT 1 AS x ;  \n\n');
    expect(loadQuery(folder, 'model_b')).toBe('-- grain: x\nSELECT 1 AS x ');
  });
});

describe('runSqlFile', () => {
  it('runs every statement in order, a semicolon inside a comment splitting nothing', async () => {
    writeFileSync(
      join(dir, 'ddl.sql'),
      '-- two tables; then a macro\nCREATE TABLE t1 (a INTEGER);\nCREATE TABLE t2 (b INTEGER); -- b; c\nCREATE MACRO twice(x) AS 2 * x;\n',
    );
    const duck = await Duck.open({ threads: 1 });
    try {
      await runSqlFile(duck, folder, 'ddl');
      const tables = await duck.all<{ t: string }>('SELECT table_name AS t FROM duckdb_tables() ORDER BY 1');
      expect(tables.map((r) => r.t)).toEqual(['t1', 't2']);
      expect((await duck.one<{ y: number }>('SELECT twice(21) AS y')).y).toBe(42);
    } finally {
      duck.close();
    }
  });

  it('stops at the first statement that fails, keeping those before it', async () => {
    writeFileSync(
      join(dir, 'broken.sql'),
      'CREATE TABLE ok1 (a INTEGER);\nSELECT * FROM missing;\nCREATE TABLE ok2 (a INTEGER);\n',
    );
    const duck = await Duck.open({ threads: 1 });
    try {
      await expect(runSqlFile(duck, folder, 'broken')).rejects.toThrow(/missing/);
      const tables = await duck.all<{ t: string }>('SELECT table_name AS t FROM duckdb_tables() ORDER BY 1');
      expect(tables.map((r) => r.t)).toEqual(['ok1']);
    } finally {
      duck.close();
    }
  });
});
