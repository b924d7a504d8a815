import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { alignForecasts } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { labelEndTime } from './origin-matcher.ts';
import { readForecasts } from './read-forecasts.ts';
import type { OriginRow } from './score-types.ts';

// Issue 16 point 4: a forecasts file may name an origin by the split's origin_label (the period in the
// series' own terms) or by its instant; one that matches nothing names the nearest valid origins.
// Month and quarter ends are 23:59:59.999999 New York time (EST in winter, EDT in summer).
const ORIGINS: OriginRow[] = [
  {
    series_id: 'M',
    origin: '2020-01-01T04:59:59.999999Z',
    origin_label: '2019-12',
    horizon: 1,
    last_value: 1,
  },
  {
    series_id: 'M',
    origin: '2020-04-01T03:59:59.999999Z',
    origin_label: '2020-03',
    horizon: 1,
    last_value: 2,
  },
  {
    series_id: 'M',
    origin: '2020-07-01T03:59:59.999999Z',
    origin_label: '2020-06',
    horizon: 1,
    last_value: 3,
  },
  {
    series_id: 'M',
    origin: '2020-10-01T03:59:59.999999Z',
    origin_label: '2020-09',
    horizon: 1,
    last_value: 4,
  },
  {
    series_id: 'Q',
    origin: '2020-01-01T04:59:59.999999Z',
    origin_label: '2019Q4',
    horizon: 1,
    last_value: 5,
  },
  {
    series_id: 'Q',
    origin: '2020-04-01T03:59:59.999999Z',
    origin_label: '2020Q1',
    horizon: 1,
    last_value: 6,
  },
  {
    series_id: 'A',
    origin: '2020-07-01T03:59:59.999999Z',
    origin_label: 'FY2020',
    horizon: 1,
    last_value: 7,
  },
  // Hand-made origins at 00:00 UTC: the New York date (the label) is the day before, so the bare date
  // 2024-01-02 is the label of the second origin and the instant of the first.
  { series_id: 'D', origin: '2024-01-02', origin_label: '2024-01-01', horizon: 1, last_value: 8 },
  { series_id: 'D', origin: '2024-01-03', origin_label: '2024-01-02', horizon: 1, last_value: 9 },
];
const panel = buildEvaluationPanel(
  ORIGINS,
  ORIGINS.map((o) => ({ series_id: o.series_id, origin: o.origin, step: 1, value: o.last_value + 0.5 })),
);

const dir = mkdtempSync(join(tmpdir(), 'asof-labels-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function align(lines: string[]) {
  const path = join(dir, 'f.csv');
  writeFileSync(path, `model,series_id,origin,step,value\n${lines.join('\n')}\n`);
  return alignForecasts(panel, await readForecasts(path));
}

async function rejection(line: string): Promise<InputError> {
  const err = await align(['m,M,2019-12,1,1.5', line]).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

describe('origins as period labels or instants', () => {
  it('matches labels and instants (any zone) to the same origins', async () => {
    const [m] = await align([
      'm,M,2019-12,1,1.5',
      'm,M,2020-04-01T03:59:59.999999Z,1,2.5',
      'm,M,2020-06-30T23:59:59.999-04:00,1,3.5',
      'm,M,2020-09,1,4.5',
      'm,Q,2019Q4,1,5.5',
      'm,Q,2020-04-01T03:59:59.999Z,1,6.5',
      'm,A,FY2020,1,7.5',
      'm,D,2024-01-01,1,8.5',
      'm,D,2024-01-03T00:00:00Z,1,9.5',
    ]);
    expect(m.covered).toBeNull();
    // Same index = same origin: each forecast landed on the origin whose target is its value.
    expect(Array.from(m.point)).toEqual(Array.from(panel.actual));
  });

  it('names the nearest origins (label and instant) of an unmatched label', async () => {
    const err = await rejection('m,M,2020-02,1,1');
    expect(err.code).toBe('FORECAST_UNKNOWN_ORIGIN');
    expect(err.message).toBe(
      `${join(dir, 'f.csv')} row 3: origin "2020-02" is not an origin of M in the split (neither an origin's period label nor its instant); nearest origins of M: 2019-12 (2020-01-01T04:59:59.999999Z), 2020-03 (2020-04-01T03:59:59.999999Z)`,
    );
    expect(err.context).toMatchObject({
      file: join(dir, 'f.csv'),
      row: 3,
      field: 'origin',
      value: '2020-02',
      nearest: ['2019-12 (2020-01-01T04:59:59.999999Z)', '2020-03 (2020-04-01T03:59:59.999999Z)'],
    });
  });

  it.each([
    ['an instant between two origins', 'M', '2020-05-15', ['2020-03', '2020-06']],
    ['a label after the last origin', 'M', '2021-01', ['2020-06', '2020-09']],
    ['a label before the first origin', 'M', '2019Q1', ['2019-12', '2020-03']],
    [
      "a month label on a quarterly series (the quarter's end is 5 h later)",
      'Q',
      '2019-12',
      ['2019Q4', '2020Q1'],
    ],
    ['a calendar-year label on a fiscal-year series', 'A', '2020', ['FY2020']],
  ])('names the nearest origins of %s', async (_what, series, text, labels) => {
    const err = await rejection(`m,${series},${text},1,1`);
    expect(err.code).toBe('FORECAST_UNKNOWN_ORIGIN');
    expect((err.context.nearest as string[]).map((n) => n.split(' ')[0])).toEqual(labels);
    expect(err.message).toContain(`origin "${text}" is not an origin of ${series}`);
  });

  it('refuses text that is neither a label nor an instant, naming the series’ first and last origins', async () => {
    const err = await rejection('m,M,Dec 2019,1,1');
    expect(err.code).toBe('FORECAST_BAD_ORIGIN');
    expect(err.message).toMatch(
      /row 3: origin "Dec 2019" is not an ISO date .* or its instant .*; M's origins run from 2019-12 \(2020-01-01T04:59:59\.999999Z\) to 2020-09 \(2020-10-01T03:59:59\.999999Z\)$/,
    );
  });

  it('refuses a bare date that is one origin’s label and another’s instant', async () => {
    const err = await rejection('m,D,2024-01-02,1,1');
    expect(err.code).toBe('FORECAST_AMBIGUOUS_ORIGIN');
    expect(err.message).toContain(
      `origin "2024-01-02" is the period label of D's origin 2024-01-02 (2024-01-03) and the instant of its origin 2024-01-01 (2024-01-02); write the full instant (e.g. 2024-01-02T00:00:00.000Z)`,
    );
  });

  it('reads label forms as the end of their period (for ordering the nearest origins)', () => {
    expect(new Date(labelEndTime('2019-12')!).toISOString()).toBe('2019-12-31T23:59:59.999Z');
    expect(new Date(labelEndTime('2020Q1')!).toISOString()).toBe('2020-03-31T23:59:59.999Z');
    expect(new Date(labelEndTime('FY2019')!).toISOString()).toBe('2019-12-31T23:59:59.999Z');
    expect(new Date(labelEndTime('2020-03-04')!).toISOString()).toBe('2020-03-04T00:00:00.000Z');
    for (const bad of ['2019-13', '2019Q5', 'FY19', 'Dec 2019']) expect(labelEndTime(bad)).toBeNull();
  });

  it('keeps origins without labels (older splits) matched by instant only', () => {
    const plain = buildEvaluationPanel(
      [{ series_id: 'M', origin: '2020-01-01T04:59:59.999999Z', horizon: 1, last_value: 1 }],
      [],
    );
    expect(plain.originLabel).toBeUndefined();
    // Series-major (A, D, M, Q), time order: the labels travel with their origins.
    expect(panel.originLabel).toEqual([
      'FY2020',
      '2024-01-01',
      '2024-01-02',
      '2019-12',
      '2020-03',
      '2020-06',
      '2020-09',
      '2019Q4',
      '2020Q1',
    ]);
  });
});
