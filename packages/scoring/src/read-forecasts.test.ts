import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import type { CodedText } from './align-forecasts.ts';
import { checkForecastsReadable, readForecasts } from './read-forecasts.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'asof-rf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function inputError(p: Promise<unknown>): Promise<InputError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  expect((err as InputError).exitCode).toBe(2);
  // One line: a message a user reads, not a dump.
  expect((err as InputError).message).not.toMatch(/\n/);
  return err as InputError;
}

const both = [
  ['readForecasts', readForecasts],
  ['checkForecastsReadable', checkForecastsReadable],
] as const;

describe.each(both)('%s refuses unusable paths up front', (_name, read) => {
  it('a missing file: FORECAST_NOT_FOUND naming the path, with a hint', async () => {
    const path = join(dir, 'nope', 'forecasts.csv');
    const err = await inputError(read(path));
    expect(err.code).toBe('FORECAST_NOT_FOUND');
    expect(err.message).toBe(
      `${path}: no such forecasts file; check the path (a .csv or .parquet file written by your model or by asof baselines)`,
    );
    expect(err.context.file).toBe(path);
  });

  it('a folder: FORECAST_NOT_A_FILE naming the path and the forecasts files inside', async () => {
    const folder = join(dir, 'run1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'model.csv'), 'model,series_id,origin,step,value\n');
    const err = await inputError(read(folder));
    expect(err.code).toBe('FORECAST_NOT_A_FILE');
    expect(err.message).toBe(
      `${folder}: is a folder, not a forecasts file; pass the .csv or .parquet file itself (it holds model.csv)`,
    );
  });

  it('an unknown extension: FORECAST_FORMAT', async () => {
    const err = await inputError(read(file('f.tsv', 'model\tseries_id\n')));
    expect(err.code).toBe('FORECAST_FORMAT');
  });

  it.each([
    ['with a final line break', 'model,series_id,origin,step,value\n'],
    ['without one', 'model,series_id,origin,step,value'],
    ['followed by blank lines', 'model,series_id,origin,step,value\r\n\r\n\n'],
  ])('a header-only CSV (%s): FORECAST_EMPTY naming the file', async (_what, text) => {
    const path = file('header-only.csv', text);
    const err = await inputError(read(path));
    expect(err.code).toBe('FORECAST_EMPTY');
    expect(err.message).toMatch(new RegExp(`^${path}: has a header line but no rows;`));
  });

  it('an empty CSV: FORECAST_EMPTY', async () => {
    const err = await inputError(read(file('empty.csv', '')));
    expect(err.code).toBe('FORECAST_EMPTY');
    expect(err.message).toMatch(/empty\.csv: empty file; a forecasts file has the header model,series_id/);
  });

  it('a Parquet file with 0 rows: FORECAST_EMPTY naming the file', async () => {
    const path = join(FIXTURES, 'forecasts-empty.parquet');
    const err = await inputError(read(path));
    expect(err.code).toBe('FORECAST_EMPTY');
    expect(err.message).toMatch(new RegExp(`^${path}: has a schema but 0 rows;`));
  });

  it('a header without the required columns, or with one twice', async () => {
    const missing = await inputError(read(file('m.csv', 'model,series_id,origin,value\nm,A,2024-01-02,1\n')));
    expect(missing.code).toBe('FORECAST_MISSING_COLUMN');
    const twice = await inputError(
      read(file('t.csv', 'model,series_id,origin,step,value,value\nm,A,2024-01-02,1,1,1\n')),
    );
    expect(twice.code).toBe('FORECAST_DUPLICATE_COLUMN');
  });
});

describe('checkForecastsReadable', () => {
  it('returns the format and columns of the fixture files', async () => {
    const columns = ['model', 'series_id', 'origin', 'step', 'value', 'q0.1', 'q0.5', 'q0.9'];
    expect(await checkForecastsReadable(join(FIXTURES, 'forecasts.csv'))).toEqual({ format: 'csv', columns });
    expect(await checkForecastsReadable(join(FIXTURES, 'forecasts.parquet'))).toEqual({
      format: 'parquet',
      columns,
    });
  });

  it('reads only the header and the first row (the values are checked by the full read)', async () => {
    const path = file('late-error.csv', 'model,series_id,origin,step,value\nm,A,2024-01-02,1,1\nm,A\n');
    await expect(checkForecastsReadable(path)).resolves.toMatchObject({ format: 'csv' });
    expect((await inputError(readForecasts(path))).message).toMatch(/late-error\.csv line 3: 2 fields/);
  });
});

describe('readForecasts', () => {
  it('returns typed numeric columns and dictionary-coded text (no per-row objects or strings)', async () => {
    const csv = await readForecasts(join(FIXTURES, 'forecasts.csv'));
    const parquet = await readForecasts(join(FIXTURES, 'forecasts.parquet'));
    for (const t of [csv, parquet]) {
      expect(t.step).toBeInstanceOf(Float64Array);
      expect(t.value).toBeInstanceOf(Float64Array);
      expect(t.value.length).toBe(300);
      for (const c of [t.model, t.series_id, t.origin] as CodedText[]) {
        expect(c.codes).toBeInstanceOf(Uint32Array);
        expect(c.codes.length).toBe(300);
      }
      expect((t.model as CodedText).dictionary).toEqual(['mymodel']);
      expect((t.series_id as CodedText).dictionary).toEqual(['eq.AAA', 'eq.BBB', 'eq.CCC']);
      expect((t.origin as CodedText).dictionary.length).toBe(20);
      expect(t.quantiles.map((q) => q.level)).toEqual([0.1, 0.5, 0.9]);
    }
    expect(Array.from(csv.value)).toEqual(Array.from(parquet.value));
    expect(Array.from(csv.step)).toEqual(Array.from(parquet.step));
    expect(Array.from((csv.series_id as CodedText).codes)).toEqual(
      Array.from((parquet.series_id as CodedText).codes),
    );
    // Rows start on line 2 + their index, so no per-row line numbers are kept.
    expect(csv.rowNumbers).toBeUndefined();
  });

  it('keeps the line of each row once a row does not start on line 2 + its index', async () => {
    const t = await readForecasts(
      file(
        'lines.csv',
        'model,series_id,origin,step,value\nm,A,2024-01-02,1,1\n\n"m\nx",A,2024-01-02,2,2\nm,A,x,3,3\n',
      ),
    );
    expect(Array.from(t.rowNumbers!)).toEqual([2, 4, 6]);
    expect((t.model as CodedText).dictionary).toEqual(['m', 'm\nx']);
  });

  it.each([
    ['0x10', 'value'],
    ['Infinity', 'value'],
    ['-infinity', 'value'],
    ['NaN', 'q0.5'],
    ['1,5', 'value'],
    ['12abc', 'step'],
    ['0b11', 'step'],
  ])(
    'refuses %j in %s: decimal or exponent notation only, naming file, line and field',
    async (text, field) => {
      const cells: Record<string, string> = { step: '1', value: '2', 'q0.5': '2' };
      cells[field] = text.includes(',') ? `"${text}"` : text;
      const path = file(
        `bad-number-${field}.csv`,
        `model,series_id,origin,step,value,q0.5\nm,A,2024-01-02,1,1,1\nm,A,2024-01-02,${cells.step},${cells.value},${cells['q0.5']}\n`,
      );
      const err = await inputError(readForecasts(path));
      expect(err.code).toBe('FORECAST_BAD_NUMBER');
      expect(err.message).toContain(`${path} line 3, field ${field}: ${JSON.stringify(text)}`);
    },
  );

  it.each([
    ['1e308', 'value'],
    ['-1e15', 'q0.5'],
    ['2.5e20', 'value'],
  ])('8.6d: refuses the finite %s in %s: beyond ±1e15, naming file, line and field', async (text, field) => {
    const cells: Record<string, string> = { value: '2', 'q0.5': '2' };
    cells[field] = text;
    const path = file(
      `too-large-${field}.csv`,
      `model,series_id,origin,step,value,q0.5\nm,A,2024-01-02,1,1,1\nm,A,2024-01-02,2,${cells.value},${cells['q0.5']}\n`,
    );
    const err = await inputError(readForecasts(path));
    expect(err.code).toBe('FORECAST_OUT_OF_RANGE');
    expect(err.message).toContain(`${path} line 3, field ${field}: ${Number(text)} is beyond ±1e15`);
    expect(err.context).toMatchObject({ file: path, row: 3, field });
  });

  it('8.6d: reads values just inside ±1e15, and a step is not bounded as a value', async () => {
    const t = await readForecasts(
      file(
        'inside-bound.csv',
        'model,series_id,origin,step,value\nm,A,2024-01-02,1,999999999999999\nm,A,2024-01-02,2,-9.99e14\n',
      ),
    );
    expect(Array.from(t.value)).toEqual([999999999999999, -9.99e14]);
  });

  it('reads every decimal and exponent spelling a CSV writer emits, and an empty cell as missing', async () => {
    const t = await readForecasts(
      file(
        'good-numbers.csv',
        'model,series_id,origin,step,value\nm,A,2024-01-02,1,16\nm,A,2024-01-02,2,-1.25\nm,A,2024-01-02,3,+.5\nm,A,2024-01-02,4,3.2E-4\nm,A,2024-01-02,5, 7. \nm,A,2024-01-02,6,\n',
      ),
    );
    expect(Array.from(t.value)).toEqual([16, -1.25, 0.5, 3.2e-4, 7, Number.NaN]);
  });
});
