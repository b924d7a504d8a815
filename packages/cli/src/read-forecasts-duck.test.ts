import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import { type ForecastTable, readForecasts, type TextColumn } from '@asof/scoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readForecastsFast } from './read-forecasts-duck.ts';

// Issue 51 item 7: the DuckDB reader returns, for every file, exactly the table the scorer's own reader
// (hyparquet) returns — the same dictionaries in first-seen order, codes, origin texts, numbers and NaNs —
// so the scores cannot depend on which one read the file.
const dir = mkdtempSync(join(tmpdir(), 'asof-read-forecasts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (c: TextColumn) =>
  'codes' in c ? { dictionary: [...c.dictionary], codes: Array.from(c.codes) } : Array.from(c);
const nums = (a: ArrayLike<number>) => Array.from(a, (v) => (Number.isNaN(v) ? 'NaN' : v));
const plain = (t: ForecastTable) => ({
  ...t,
  model: text(t.model),
  series_id: text(t.series_id),
  origin: text(t.origin),
  step: nums(t.step),
  value: nums(t.value),
  quantiles: t.quantiles.map((q) => ({ ...q, values: nums(q.values) })),
  samples: t.samples.map((s) => ({ ...s, values: nums(s.values) })),
});

// 3 models (first seen: zeta, alpha, mid), 40 series, origins over 3 years, 6 steps; the point model's
// quantiles are NULL, and a few cells of every kind are NULL.
const ROWS = `SELECT ['zeta', 'alpha', 'mid'][1 + (i // 7) % 3] AS model,
    CASE WHEN i = 11 THEN NULL ELSE 's' || ((i * 7919) % 40)::VARCHAR END AS series_id,
    TIMESTAMPTZ '2020-01-31 23:59:59.999999+00' + INTERVAL (i % 37) DAY AS origin,
    (1 + i % 6)::BIGINT AS step,
    CASE WHEN i = 5 THEN NULL ELSE sin(i) * 100 END AS value,
    CASE WHEN (i // 7) % 3 = 0 THEN NULL ELSE sin(i) * 100 - 3 END AS "q0.05",
    CASE WHEN (i // 7) % 3 = 0 THEN NULL ELSE (sin(i) * 100 + 3)::FLOAT END AS "q0.95"
  FROM range(5000) AS r(i)`;

async function write(name: string, select: string): Promise<string> {
  const path = join(dir, name);
  const duck = await Duck.open({ threads: 1 });
  try {
    await duck.run(`COPY (${select}) TO ${quoteLiteral(path)} (FORMAT parquet, ROW_GROUP_SIZE 1024)`);
  } finally {
    duck.close();
  }
  return path;
}

const files: Record<string, string> = {};
beforeAll(async () => {
  files.timestamptz = await write('tz.parquet', ROWS);
  files.naive = await write('naive.parquet', `SELECT * REPLACE (origin::TIMESTAMP AS origin) FROM (${ROWS})`);
  files.date = await write('date.parquet', `SELECT * REPLACE (origin::DATE AS origin) FROM (${ROWS})`);
  files.text = await write(
    'text.parquet',
    `SELECT * REPLACE (CASE WHEN step = 3 THEN strftime(origin, '%Y-%m') WHEN step = 4 THEN NULL
       ELSE strftime(origin, '%Y-%m-%dT%H:%M:%S.%fZ') END AS origin) FROM (${ROWS})`,
  );
  files.samples = await write(
    'samples.parquet',
    `SELECT model, series_id, origin, step::INTEGER AS step, value, value + 2 AS s2, value - 1 AS s1 FROM (${ROWS})`,
  );
  // Numbers as text: DuckDB would cast them differently, so the scorer's reader (which checks each) reads it.
  files.textValues = await write(
    'text-values.parquet',
    `SELECT * REPLACE (value::VARCHAR AS value) FROM (${ROWS})`,
  );
  files.csv = join(dir, 'f.csv');
  writeFileSync(files.csv, 'model,series_id,origin,step,value\nm,s1,2020-01,1,1.5\nm,s1,2020-01,2,\n');
});

describe('readForecastsFast (DuckDB) reads what readForecasts (hyparquet) reads', () => {
  for (const kind of ['timestamptz', 'naive', 'date', 'text', 'samples', 'textValues', 'csv']) {
    it(`${kind}: the same table`, async () => {
      const fast = await readForecastsFast(files[kind]);
      const own = await readForecasts(files[kind]);
      expect(plain(fast)).toEqual(plain(own));
    });
  }

  it('keeps the file order, first-seen dictionaries, NULLs as NaN and empty text, instants in ms', async () => {
    const t = await readForecastsFast(files.timestamptz);
    expect(t.value.length).toBe(5000);
    expect(text(t.model)).toMatchObject({ dictionary: ['zeta', 'alpha', 'mid'] });
    expect((t.origin as { dictionary: readonly string[] }).dictionary[0]).toBe('2020-01-31T23:59:59.999Z');
    expect((t.series_id as { dictionary: readonly string[] }).dictionary).toContain('');
    expect(Number.isNaN(t.value[5])).toBe(true);
    expect(Number.isNaN(t.quantiles[0].values[0])).toBe(true);
    expect(t.quantiles.map((q) => q.level)).toEqual([0.05, 0.95]);
    expect(Array.from(t.step).slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 1]);
  });

  it('refuses what readForecasts refuses, with its message', async () => {
    const bad = await write('bad.parquet', `SELECT model, series_id, origin, value FROM (${ROWS})`);
    await expect(readForecastsFast(bad)).rejects.toThrow(/missing column\(s\) step/);
    const none = await write('none.parquet', `SELECT * FROM (${ROWS}) WHERE false`);
    await expect(readForecastsFast(none)).rejects.toThrow(/has a schema but 0 rows/);
  });

  it('refuses a finite value beyond ±1e15 as readForecasts does: the same first cell, the same error', async () => {
    // Row 4000 has a quantile of 1e300 and row 4500 a value of -1e16; readForecasts names the value column first.
    const withRow = ROWS.replace("SELECT ['zeta'", "SELECT i, ['zeta'");
    const huge = await write(
      'huge.parquet',
      `SELECT model, series_id, origin, step, CASE WHEN i = 4500 THEN -1e16 ELSE value END AS value,
         CASE WHEN i = 4000 THEN 1e300 ELSE "q0.05" END AS "q0.05", "q0.95"
       FROM (${withRow}) ORDER BY i`,
    );
    const own = await readForecasts(huge).catch((e: Error) => e);
    const fast = await readForecastsFast(huge).catch((e: Error) => e);
    expect(own).toBeInstanceOf(Error);
    expect((fast as Error).message).toBe((own as Error).message);
    expect((fast as Error).message).toMatch(/row 4501, field value: -10000000000000000 is beyond ±1e15/);
  });
});
