import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiffTable, diffModelSql } from './run-diff-model.ts';
import { vendorRestatementWarnings } from './vendor-restatement-warnings.ts';

// Given/expect tests of the diff models on hand-made tables (what diffUniverses loads from two universes).
let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open({ threads: 1 });
});
afterEach(() => duck.close());

const SERIES_COLUMNS = `series_id VARCHAR, source VARCHAR, frequency VARCHAR, universe_kind VARCHAR,
  fiscal_year_end VARCHAR, n_obs BIGINT, n_revisions BIGINT`;
const OBS_COLUMNS = `series_id VARCHAR, "timestamp" TIMESTAMPTZ, available_at TIMESTAMPTZ, value DOUBLE,
  available_at_basis VARCHAR, source_ref VARCHAR`;

type Row = [string, string, string, number | null, string?];

async function given(side: 'a' | 'b', series: [string, string, string][], rows: Row[]): Promise<void> {
  await duck.run(`CREATE TABLE ${side}_series (${SERIES_COLUMNS})`);
  for (const [id, source, kind] of series) {
    const n = rows.filter((r) => r[0] === id).length;
    await duck.run(`INSERT INTO ${side}_series VALUES ($id, $source, 'M', $kind, NULL, $n, 0)`, {
      id,
      source,
      kind,
      n,
    });
  }
  await duck.run(`CREATE TABLE ${side}_obs (${OBS_COLUMNS})`);
  for (const [id, ts, at, value, ref] of rows) {
    await duck.run(
      `INSERT INTO ${side}_obs VALUES ($id, $ts::TIMESTAMPTZ, $at::TIMESTAMPTZ, $value, 'vintage', $ref)`,
      { id, ts: `${ts}T00:00:00Z`, at: `${at}T00:00:00Z`, value, ref: ref ?? 'r' },
    );
  }
}

describe('diff_series and diff_rows', () => {
  it('classify every differing row by what A knew of its timestamp', async () => {
    const series: [string, string, string][] = [
      ['alf', 'fred', 'point_in_time'],
      ['px', 'stooq', 'static'],
      ['rw', 'stooq', 'static'],
      ['same', 'edgar', 'point_in_time'],
    ];
    const common: Row[] = [
      ['alf', '2020-01-01', '2020-02-01', 1],
      ['alf', '2020-02-01', '2020-03-01', 2],
      ['px', '2020-01-01', '2020-01-01', 10],
      ['same', '2020-01-01', '2020-02-01', 4],
    ];
    await given(
      'a',
      [...series, ['old', 'fred', 'point_in_time']],
      [
        ...common,
        ['rw', '2020-01-01', '2020-01-02', 5],
        ['rw', '2020-02-01', '2020-02-02', 7],
        ['old', '2020-01-01', '2020-02-01', 9],
      ],
    );
    await given(
      'b',
      [...series, ['nu', 'fred', 'point_in_time']],
      [
        ...common,
        ['alf', '2020-01-01', '2020-06-01', 1.1, 'alfred:2020-06-01'],
        ['alf', '2020-02-01', '2020-06-01', null, 'alfred:2020-06-01'],
        ['alf', '2020-03-01', '2020-06-01', 3, 'alfred:2020-06-01'],
        ['px', '2020-01-01', '2020-07-01', 10.5, 'dl2'],
        ['px', '2020-02-01', '2020-02-01', 11, 'dl2'],
        ['rw', '2020-01-01', '2020-01-02', 6],
        ['nu', '2020-01-01', '2020-02-01', 1],
      ],
    );
    await createDiffTable(duck, 'diff_series');
    await createDiffTable(duck, 'diff_rows');
    expect(
      await duck.all('SELECT series_id, status, a_rows, b_rows FROM diff_series ORDER BY series_id'),
    ).toEqual([
      { series_id: 'alf', status: 'common', a_rows: 2n, b_rows: 5n },
      { series_id: 'nu', status: 'new', a_rows: 0n, b_rows: 1n },
      { series_id: 'old', status: 'removed', a_rows: 1n, b_rows: 0n },
      { series_id: 'px', status: 'common', a_rows: 1n, b_rows: 3n },
      { series_id: 'rw', status: 'common', a_rows: 2n, b_rows: 1n },
      { series_id: 'same', status: 'common', a_rows: 1n, b_rows: 1n },
    ]);
    const rows = await duck.all(
      `SELECT series_id, strftime("timestamp", '%Y-%m-%d') AS ts, kind, side, old_value,
              strftime(old_available_at, '%Y-%m-%d') AS old_at, new_value,
              strftime(new_available_at, '%Y-%m-%d') AS new_at
       FROM diff_rows ORDER BY series_id, "timestamp", side`,
    );
    expect(rows).toEqual([
      {
        series_id: 'alf',
        ts: '2020-01-01',
        kind: 'revision',
        side: 'b',
        old_value: 1,
        old_at: '2020-02-01',
        new_value: 1.1,
        new_at: '2020-06-01',
      },
      {
        series_id: 'alf',
        ts: '2020-02-01',
        kind: 'withdrawal',
        side: 'b',
        old_value: 2,
        old_at: '2020-03-01',
        new_value: null,
        new_at: '2020-06-01',
      },
      {
        series_id: 'alf',
        ts: '2020-03-01',
        kind: 'new_observation',
        side: 'b',
        old_value: null,
        old_at: null,
        new_value: 3,
        new_at: '2020-06-01',
      },
      {
        series_id: 'px',
        ts: '2020-01-01',
        kind: 'restatement',
        side: 'b',
        old_value: 10,
        old_at: '2020-01-01',
        new_value: 10.5,
        new_at: '2020-07-01',
      },
      {
        series_id: 'px',
        ts: '2020-02-01',
        kind: 'new_observation',
        side: 'b',
        old_value: null,
        old_at: null,
        new_value: 11,
        new_at: '2020-02-01',
      },
      // Same grain, another value: A's row is the old one, B's the new one.
      {
        series_id: 'rw',
        ts: '2020-01-01',
        kind: 'rewritten',
        side: 'b',
        old_value: 5,
        old_at: '2020-01-02',
        new_value: 6,
        new_at: '2020-01-02',
      },
      {
        series_id: 'rw',
        ts: '2020-02-01',
        kind: 'rewritten',
        side: 'a',
        old_value: 7,
        old_at: '2020-02-02',
        new_value: null,
        new_at: null,
      },
    ]);
  });

  it('list a value changed at the same grain once, from B, with A’s value as the old one', async () => {
    await given('a', [['rw', 'stooq', 'static']], [['rw', '2020-01-01', '2020-01-02', 5]]);
    await given('b', [['rw', 'stooq', 'static']], [['rw', '2020-01-01', '2020-01-02', 6]]);
    await createDiffTable(duck, 'diff_series');
    await createDiffTable(duck, 'diff_rows');
    const rows = await duck.all('SELECT kind, side, old_value, new_value FROM diff_rows');
    expect(rows).toEqual([{ kind: 'rewritten', side: 'b', old_value: 5, new_value: 6 }]);
  });
});

describe('a series of an indexed entity (point_in_time for its membership, docs/decisions/0021)', () => {
  const H1 = 'a'.repeat(64);
  const H2 = 'b'.repeat(64);
  it('diff_rows: a later value dated by a download (source_ref a file sha256) is a restatement; a dated vintage a revision', async () => {
    const series: [string, string, string][] = [
      ['px:IDX:close', 'yahoo', 'point_in_time'],
      ['edgar:1:x', 'edgar', 'point_in_time'],
    ];
    const both: Row[] = [
      ['px:IDX:close', '2020-01-01', '2020-01-01', 10, H1],
      ['edgar:1:x', '2020-01-01', '2020-02-01', 4, '0000000001-20-000001'],
    ];
    await given('a', series, both);
    await given('b', series, [
      ...both,
      ['px:IDX:close', '2020-01-01', '2020-07-01', 10.5, H2],
      ['edgar:1:x', '2020-01-01', '2020-08-01', 5, '0000000001-20-000009'],
    ]);
    await createDiffTable(duck, 'diff_series');
    await createDiffTable(duck, 'diff_rows');
    expect(await duck.all('SELECT series_id, kind FROM diff_rows ORDER BY series_id')).toEqual([
      { series_id: 'edgar:1:x', kind: 'revision' },
      { series_id: 'px:IDX:close', kind: 'restatement' },
    ]);
  });

  it('vendor_restatements: counts its re-downloaded values, not the dated vintages of other series', async () => {
    await duck.run(
      `CREATE TABLE series (series_id VARCHAR, universe_kind VARCHAR, frequency VARCHAR, fiscal_year_end VARCHAR)`,
    );
    await duck.run(`INSERT INTO series VALUES ('px:IDX:close', 'point_in_time', 'BD', NULL),
      ('fred:G', 'point_in_time', 'Q', NULL)`);
    await duck.run(`CREATE TABLE observations (series_id VARCHAR, series_rank INTEGER, "timestamp" TIMESTAMPTZ,
      available_at TIMESTAMPTZ, value DOUBLE, source_ref VARCHAR, is_first_vintage BOOLEAN)`);
    await duck.run(`INSERT INTO observations VALUES
      ('px:IDX:close', 1, '2020-01-01T21:00:00Z', '2020-01-01T21:00:00Z', 10, '${H1}', true),
      ('px:IDX:close', 1, '2020-01-01T21:00:00Z', '2020-07-01T00:00:00Z', 10.5, '${H2}', false),
      ('fred:G', 2, '2019-03-31T00:00:00Z', '2019-04-30T00:00:00Z', 1, 'alfred:2019-04-30', true),
      ('fred:G', 2, '2019-03-31T00:00:00Z', '2019-05-30T00:00:00Z', 2, 'alfred:2019-05-30', false)`);
    const rows = await duck.all<{ source_ref: string; n_values: bigint }>(
      diffModelSql('vendor_restatements'),
    );
    expect(rows.map((r) => [r.source_ref, r.n_values])).toEqual([[H2, 1n]]);
  });
});

describe('vendor_restatements', () => {
  it('counts values a later download changed in static series, per restating file', async () => {
    await duck.run(
      `CREATE TABLE series (series_id VARCHAR, universe_kind VARCHAR, frequency VARCHAR, fiscal_year_end VARCHAR)`,
    );
    await duck.run(`INSERT INTO series VALUES ('pxadj:A:close', 'static', 'BD', NULL), ('pxadj:A:open', 'static', 'BD', NULL),
      ('fred:G', 'point_in_time', 'Q', NULL)`);
    await duck.run(`CREATE TABLE observations (series_id VARCHAR, series_rank INTEGER, "timestamp" TIMESTAMPTZ,
      available_at TIMESTAMPTZ, value DOUBLE, source_ref VARCHAR, is_first_vintage BOOLEAN)`);
    const add = (id: string, rank: number, ts: string, at: string, v: number, ref: string, first: boolean) =>
      duck.run(
        'INSERT INTO observations VALUES ($id, $rank, $ts::TIMESTAMPTZ, $at::TIMESTAMPTZ, $v, $ref, $first)',
        {
          id,
          rank,
          ts,
          at,
          v,
          ref,
          first,
        },
      );
    await add('pxadj:A:close', 1, '2019-05-03T20:00:00Z', '2019-05-08T00:00:00Z', 211.75, 'aaa', true);
    await add('pxadj:A:close', 1, '2019-05-03T20:00:00Z', '2026-01-17T00:00:00Z', 50.72, 'bbb', false);
    await add('pxadj:A:close', 1, '2019-05-06T20:00:00Z', '2019-05-08T00:00:00Z', 208, 'aaa', true);
    await add('pxadj:A:close', 1, '2019-05-06T20:00:00Z', '2026-01-17T00:00:00Z', 49.8, 'bbb', false);
    await add('pxadj:A:open', 2, '2019-05-03T20:00:00Z', '2019-05-08T00:00:00Z', 210, 'aaa', true);
    await add('pxadj:A:open', 2, '2019-05-03T20:00:00Z', '2026-01-17T00:00:00Z', 50.1, 'bbb', false);
    // A vintage of a point-in-time series is a revision, not a restatement.
    await add('fred:G', 3, '2019-03-31T00:00:00Z', '2019-04-30T00:00:00Z', 1, 'alfred:2019-04-30', true);
    await add('fred:G', 3, '2019-03-31T00:00:00Z', '2019-05-30T00:00:00Z', 2, 'alfred:2019-05-30', false);
    const rows = await duck.all(diffModelSql('vendor_restatements'));
    expect(rows).toEqual([
      {
        source_ref: 'bbb',
        n_values: 3n,
        n_series: 2n,
        example_series_id: 'pxadj:A:close',
        example_ts: BigInt(Date.parse('2019-05-03T20:00:00Z') * 1000),
        example_frequency: 'BD',
        example_fiscal_year_end: null,
        example_old: 211.75,
        example_new: 50.72,
      },
    ]);
    const warnings = await vendorRestatementWarnings(duck, [
      { source: 'prices:stooq', key: 'aapl_2026.csv', sha256: 'bbb', bytes: 1 },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'VENDOR_RESTATED', count: 3 });
    expect(warnings[0].message).toMatch(
      /^aapl_2026\.csv: this later download changed 3 value\(s\) of 2 series/,
    );
    expect(warnings[0].message).toContain('pxadj:A:close 2019-05-03: 211.75 → 50.72');
  });
});
