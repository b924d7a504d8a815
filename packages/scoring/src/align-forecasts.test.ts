import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASELINE_QUANTILE_LEVELS, quantileColumnName } from '@asof/baselines';
import { InputError } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable, quantileLevelOf } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { readForecasts } from './read-forecasts.ts';

const origins = [
  { series_id: 'A', origin: '2024-01-02', horizon: 2, last_value: 10 },
  { series_id: 'A', origin: '2024-01-04', horizon: 2, last_value: 11 },
  { series_id: 'B', origin: '2024-01-02', horizon: 2, last_value: 20 },
];
const targets = origins.flatMap((o) =>
  [1, 2].map((step) => ({ series_id: o.series_id, origin: o.origin, step, value: o.last_value + step })),
);
const panel = buildEvaluationPanel(origins, targets);

const dir = mkdtempSync(join(tmpdir(), 'asof-fc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = [
  'model,series_id,origin,step,value',
  'm,A,2024-01-02,1,10.5',
  'm,A,2024-01-02,2,10.6',
  'm,A,2024-01-04T00:00:00Z,1,11.5',
  'm,A,2024-01-04T00:00:00.000000Z,2,11.6',
  'm,B,2024-01-02,1,20.5',
  'm,B,2024-01-02,2,20.6',
];

async function align(lines: string[], name = 'f.csv') {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return alignForecasts(panel, await readForecasts(path));
}

async function rejection(lines: string[]): Promise<InputError> {
  const err = await align(lines).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

describe('alignForecasts', () => {
  it('lays a complete file onto the panel (origins matched as instants)', async () => {
    const [m] = await align(GOOD);
    expect(m.model).toBe('m');
    expect(Array.from(m.point)).toEqual([10.5, 10.6, 11.5, 11.6, 20.5, 20.6]);
  });

  it.each([
    [
      'an unknown series',
      6,
      'm,C,2024-01-02,2,20.6',
      'FORECAST_UNKNOWN_SERIES',
      /f\.csv row 7: series_id "C" is not in the split/,
    ],
    [
      'an origin not in the task set',
      6,
      'm,B,2024-01-04,2,20.6',
      'FORECAST_UNKNOWN_ORIGIN',
      /row 7: origin "2024-01-04" is not an origin of B/,
    ],
    [
      'a duplicate row',
      6,
      'm,B,2024-01-02,1,20.6',
      'FORECAST_DUPLICATE',
      /row 7: duplicate row for model m, B @ 2024-01-02 step 1/,
    ],
    // Spelled out, NaN and Infinity are refused where the file is read (issue 52: decimal or exponent
    // notation only); a number too large for a double still reads as Infinity, and is refused here.
    ['NaN', 3, 'm,A,2024-01-04T00:00:00Z,1,NaN', 'FORECAST_BAD_NUMBER', /line 4, field value: "NaN"/],
    ['Infinity', 3, 'm,A,2024-01-04T00:00:00Z,1,Infinity', 'FORECAST_BAD_NUMBER', /field value: "Infinity"/],
    ['1e999', 3, 'm,A,2024-01-04T00:00:00Z,1,1e999', 'FORECAST_NON_FINITE', /row 4: value Infinity/],
    ['an empty value', 3, 'm,A,2024-01-04T00:00:00Z,1,', 'FORECAST_NON_FINITE', /row 4: value NaN/],
    [
      'a step beyond H',
      6,
      'm,B,2024-01-02,3,20.6',
      'FORECAST_BAD_STEP',
      /row 7: step 3 .* expected an integer 1…2/,
    ],
  ])('rejects %s naming file, row and value', async (_what, index, line, code, message) => {
    const lines = [...GOOD];
    lines[index] = line;
    const err = await rejection(lines);
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect(err.context.file).toBe(join(dir, 'f.csv'));
    expect(err.context.row).toBe(index + 1);
  });

  it('8.6d: refuses a value more than 1e100 times its series’ smallest value, naming file, row and field', async () => {
    // In-bound values (|v| < 1e15) can still overflow a metric when a series holds values near 0: the
    // scaled change (ŷ − y_o)/|y_o| of 1e14 from 1e-90 is 1e104, and its square summed is Infinity.
    const tiny = buildEvaluationPanel(
      [{ series_id: 'T', origin: '2024-01-02', horizon: 1, last_value: -1e-90 }],
      [{ series_id: 'T', origin: '2024-01-02', step: 1, value: 2e-90 }],
    );
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return readForecasts(join(dir, name));
    };
    const ok = await write('tiny-ok.csv', 'model,series_id,origin,step,value\nm,T,2024-01-02,1,1e9\n');
    expect(Array.from(alignForecasts(tiny, ok)[0].point)).toEqual([1e9]);
    const big = await write(
      'tiny-big.csv',
      'model,series_id,origin,step,value,q0.5\nm,T,2024-01-02,1,3e-90,1e14\n',
    );
    const err = (() => {
      try {
        alignForecasts(tiny, big);
      } catch (e) {
        return e as InputError;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect(err!.code).toBe('FORECAST_OUT_OF_RANGE');
    expect(err!.message).toMatch(
      /tiny-big\.csv row 2: q0\.5 is 100000000000000, more than 1e100 times T's smallest value 1e-90/,
    );
    expect(err!.context).toMatchObject({ row: 2, field: 'q0.5' });
  });

  it('rejects a half-covered origin (steps missing), naming the model, series, origin and step', async () => {
    const err = await rejection(GOOD.filter((_, i) => i !== 4));
    expect(err.code).toBe('FORECAST_MISSING_STEPS');
    expect(err.message).toMatch(
      /model m forecasts A @ 2024-01-04 but has no row for step 2 \(1 of its 2 steps missing\); forecast the whole path 1…2/,
    );
  });

  it('accepts a subset of whole paths, marking the origins covered', async () => {
    const [m] = await align(GOOD.filter((_, i) => i !== 3 && i !== 4));
    expect(Array.from(m.covered!)).toEqual([1, 0, 1]);
    expect(Array.from(m.point)).toEqual([10.5, 10.6, Number.NaN, Number.NaN, 20.5, 20.6]);
    expect((await align(GOOD))[0].covered).toBeNull();
  });

  it('rejects crossing quantiles and non-finite samples', async () => {
    const q = ['model,series_id,origin,step,value,q0.1,q0.9', ...GOOD.slice(1).map((l) => `${l},1,2`)];
    q[2] = 'm,A,2024-01-02,2,10.6,3,2';
    expect((await rejection(q)).message).toMatch(/row 3: q0\.9 = 2 is below q0\.1 = 3/);
    const s = ['model,series_id,origin,step,value,s1,s2', ...GOOD.slice(1).map((l) => `${l},1,2`)];
    s[5] = 'm,B,2024-01-02,1,20.5,1,1e999';
    expect((await rejection(s)).message).toMatch(/row 6: s2 is Infinity/);
  });

  it('takes point models beside quantile models in one file (empty quantile cells on every row)', async () => {
    const lines = [
      'model,series_id,origin,step,value,q0.1,q0.9',
      ...GOOD.slice(1).map((l) => `${l},9,30`),
      ...GOOD.slice(1).map((l) => `${l.replace(/^m,/, 'p,')},,`),
    ];
    const [m, p] = await align(lines);
    expect(m.quantileLevels).toEqual([0.1, 0.9]);
    expect(p.model).toBe('p');
    expect(p.quantileLevels).toBeNull();
    expect(p.quantiles).toBeNull();
    expect(Array.from(p.point)).toEqual(Array.from(m.point));
    // Empty on its first row, given later: refused, naming both rows.
    lines[9] = 'p,A,2024-01-04T00:00:00Z,1,11.5,9,';
    const err = await rejection(lines);
    expect(err.code).toBe('FORECAST_MIXED_COLUMNS');
    expect(err.message).toMatch(
      /row 10: model "p" gives q0\.1 = 9 here but no quantiles on its first row \(row 8\)/,
    );
    // One empty cell among filled ones is still a missing value.
    const one = ['model,series_id,origin,step,value,q0.1,q0.9', ...GOOD.slice(1).map((l) => `${l},9,30`)];
    one[2] = 'm,A,2024-01-02,2,10.6,,30';
    expect((await rejection(one)).message).toMatch(/row 3: q0\.1 is NaN/);
  });

  it('rejects unknown columns and a missing required column at the header', async () => {
    await expect(align(['model,series_id,origin,step,value,extra', 'm,A,2024-01-02,1,1,2'])).rejects.toThrow(
      /unknown column\(s\) extra/,
    );
    await expect(align(['model,series_id,origin,value', 'm,A,2024-01-02,1'])).rejects.toThrow(
      /missing column\(s\) step/,
    );
  });

  it.each([
    [
      'a day past the end of April',
      '2024-04-31',
      /origin "2024-04-31" has day 31, but April 2024 has 30 days/,
    ],
    [
      'February 30 as an instant',
      '2024-02-30T00:00:00Z',
      /origin "2024-02-30T00:00:00Z" has day 30, but February 2024 has 29 days/,
    ],
    // The split's own origin written without a zone: Date.parse would read it in the machine's time zone.
    [
      'a zone-less instant',
      '2024-01-04T00:00:00',
      /origin "2024-01-04T00:00:00" has a time of day but no zone/,
    ],
  ])('rejects %s as an origin, naming file, row and field', async (_what, origin, message) => {
    const lines = [...GOOD];
    lines[3] = `m,A,${origin},1,11.5`;
    const err = await rejection(lines);
    expect(err.code).toBe('FORECAST_BAD_ORIGIN');
    expect(err.message).toMatch(new RegExp(`f\\.csv row 4: ${message.source}`));
    expect(err.context).toMatchObject({ file: join(dir, 'f.csv'), row: 4, field: 'origin', value: origin });
  });

  it.each([
    ['model', 'an ANSI colour code', 'm\u001b[31mred', 0, 'U+001B'],
    ['model', 'a one-character CSI (C1)', 'm\u009b2J', 0, 'U+009B'],
    ['model', 'a DEL', 'm\u007f', 0, 'U+007F'],
    ['series_id', 'a NUL', 'A\u0000', 1, 'U+0000'],
    ['series_id', 'a quoted line break', '"A\nB"', 1, 'U+000A'],
  ])('rejects a %s containing %s, naming file, row and field', async (field, _what, text, column, code) => {
    const lines = [...GOOD];
    const fields = lines[5].split(',');
    fields[column] = text;
    lines[5] = fields.join(',');
    const err = await rejection(lines);
    expect(err.code).toBe('FORECAST_CONTROL_CHARACTER');
    expect(err.message).toMatch(
      new RegExp(`f\\.csv row 6: ${field} ".*" contains the control character ${code.replace('+', '\\+')}`),
    );
    expect(err.context).toMatchObject({ file: join(dir, 'f.csv'), row: 6, field });
    // The message itself carries no control character: it is printed to a terminal.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking for control characters
    expect(err.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('rejects control characters in tables made from rows too, and an empty table', () => {
    const rows = GOOD.slice(1).map((l) => {
      const [model, series_id, origin, step, value] = l.split(',');
      return { model, series_id, origin, step: Number(step), value: Number(value) };
    });
    rows[2].model = 'tab\there';
    expect(() => alignForecasts(panel, forecastRowsToTable(rows, 'rows'))).toThrow(
      /rows row 3: model "tab\\there" contains the control character U\+0009/,
    );
    expect(() => alignForecasts(panel, forecastRowsToTable([], 'rows'))).toThrow(/rows: no forecast rows/);
  });
});

describe("the baselines' quantile columns", () => {
  it('are read back at their levels', () => {
    for (const l of BASELINE_QUANTILE_LEVELS) expect(quantileLevelOf(quantileColumnName(l))).toBe(l);
  });
});
