import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck, listValue } from '@asof/duck';
import type { SeriesInput } from '@asof/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertInvariants,
  createStagingTables,
  modelSql,
  OBSERVATION_MODELS,
  runModels,
} from './run-models.ts';
import { shortEvalSeriesWarning } from './short-eval-series-warning.ts';
import { StageSink } from './stage-sink.ts';

const T = (iso: string) => Date.parse(iso) * 1000;
const SERIES: SeriesInput = {
  series_id: 'x:gdp',
  source: 'test',
  source_key: 'gdp',
  title: 'GDP',
  unit: 'USD',
  frequency: 'Q',
  scope: 'Country',
  category: 'Macro Indicators',
  detail_category: 'Gdp',
  entity_id: null,
  entity_name: null,
  currency: 'USD',
  seasonal_adjustment: 'SA',
  fiscal_year_end: null,
  is_synthetic: false,
  universe_kind: 'point_in_time',
};

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
  await createStagingTables(duck);
  await duck.run("INSERT INTO registry_units VALUES ('Country','Macro Indicators','Gdp','Q',true,true)");
  await duck.run("INSERT INTO registry_horizons VALUES ('Q',4,4)");
});
afterEach(() => duck.close());

/** Stages rows of x:gdp; a null value is staged as a withdrawal (addWithdrawal). */
async function stage(rows: [string, string, number | null][], series: SeriesInput[] = [SERIES]) {
  const sink = await StageSink.create(duck);
  for (const s of series) sink.addSeries(s);
  for (const [ts, av, value] of rows) {
    const row = {
      series_id: 'x:gdp',
      timestamp: T(ts),
      period_start: null,
      available_at: T(av),
      available_at_basis: 'vintage' as const,
      source_ref: av,
    };
    if (value === null) sink.addWithdrawal(row);
    else sink.addObservation({ ...row, value });
  }
  sink.close();
  await runModels(
    duck,
    [
      ...OBSERVATION_MODELS,
      'series_stats',
      'membership',
      'series',
      'short_eval_series',
      'invariant_violations',
    ],
    {
      eval_start: '2020-01-01T00:00:00Z',
    },
  );
}

describe('observations model', () => {
  it('keeps value changes as vintages and drops unchanged re-publications', async () => {
    await stage([
      ['2019-03-31T23:59:59Z', '2019-04-26T12:30:00Z', 100],
      ['2019-03-31T23:59:59Z', '2019-05-30T12:30:00Z', 100], // unchanged: not a vintage
      ['2019-03-31T23:59:59Z', '2019-06-27T12:30:00Z', 101],
      ['2019-03-31T23:59:59Z', '2019-06-27T12:30:00Z', 101], // exact duplicate emission
    ]);
    const rows = await duck.all<{ value: number; av: string }>(
      `SELECT value, strftime(available_at, '%Y-%m-%d') AS av FROM observations ORDER BY available_at`,
    );
    expect(rows).toEqual([
      { value: 100, av: '2019-04-26' },
      { value: 101, av: '2019-06-27' },
    ]);
    const s = await duck.one<{ n_obs: bigint; n_revisions: bigint; eval_target: boolean }>(
      'SELECT n_obs, n_revisions, eval_target FROM series',
    );
    expect([Number(s.n_obs), Number(s.n_revisions), s.eval_target]).toEqual([1, 1, false]);
    await expect(assertInvariants(duck)).resolves.toBeUndefined();
  });

  it('marks eval_target only with the minimum lookback released before eval_start', async () => {
    await stage([
      ['2019-03-31T23:59:59Z', '2019-04-26T12:30:00Z', 1],
      ['2019-06-30T23:59:59Z', '2019-07-26T12:30:00Z', 2],
      ['2019-09-30T23:59:59Z', '2019-10-30T12:30:00Z', 3],
      ['2019-12-31T23:59:59Z', '2020-01-30T12:30:00Z', 4], // released after eval_start: not history
      ['2018-12-31T23:59:59Z', '2019-01-30T12:30:00Z', 0],
      // one full horizon from eval_start: an origin and its 4 quarterly target steps
      ['2020-03-31T23:59:59Z', '2020-04-29T12:30:00Z', 5],
      ['2020-06-30T23:59:59Z', '2020-07-30T12:30:00Z', 6],
      ['2020-09-30T23:59:59Z', '2020-10-29T12:30:00Z', 7],
      ['2020-12-31T23:59:59Z', '2021-01-28T12:30:00Z', 8],
      ['2021-03-31T23:59:59Z', '2021-04-29T12:30:00Z', 9],
    ]);
    expect((await duck.one<{ e: boolean }>('SELECT eval_target AS e FROM series')).e).toBe(true);
    expect(await duck.all('SELECT * FROM short_eval_series')).toEqual([]);
    expect(await shortEvalSeriesWarning(duck, '2020-01-01')).toBeNull();
  });

  it('does not mark a series too short for one full horizon after eval_start, and says so', async () => {
    await stage([
      ['2018-12-31T23:59:59Z', '2019-01-30T12:30:00Z', 0],
      ['2019-03-31T23:59:59Z', '2019-04-26T12:30:00Z', 1],
      ['2019-06-30T23:59:59Z', '2019-07-26T12:30:00Z', 2],
      ['2019-09-30T23:59:59Z', '2019-10-30T12:30:00Z', 3],
      // 4 steps from eval_start: an origin would need 1 + 4
      ['2020-03-31T23:59:59Z', '2020-04-29T12:30:00Z', 5],
      ['2020-06-30T23:59:59Z', '2020-07-30T12:30:00Z', 6],
      ['2020-09-30T23:59:59Z', '2020-10-29T12:30:00Z', 7],
      ['2020-12-31T23:59:59Z', '2021-01-28T12:30:00Z', 8],
    ]);
    expect((await duck.one<{ e: boolean }>('SELECT eval_target AS e FROM series')).e).toBe(false);
    const short = await duck.all<{ series_id: string; n_from_eval_start: bigint; prediction_length: number }>(
      'SELECT * FROM short_eval_series',
    );
    expect(short.map((r) => [r.series_id, Number(r.n_from_eval_start), r.prediction_length])).toEqual([
      ['x:gdp', 4, 4],
    ]);
    const w = await shortEvalSeriesWarning(duck, '2020-01-01');
    expect(w).toMatchObject({ code: 'EVAL_TARGET_TOO_SHORT', count: 1 });
    expect(w?.message).toContain('x:gdp (3 of 4 target steps)');
  });

  it('does not mark a series that ended before eval_start', async () => {
    await stage([
      ['2018-12-31T23:59:59Z', '2019-01-30T12:30:00Z', 0],
      ['2019-03-31T23:59:59Z', '2019-04-26T12:30:00Z', 1],
      ['2019-06-30T23:59:59Z', '2019-07-26T12:30:00Z', 2],
      ['2019-09-30T23:59:59Z', '2019-10-30T12:30:00Z', 3],
    ]);
    expect((await duck.one<{ e: boolean }>('SELECT eval_target AS e FROM series')).e).toBe(false);
  });

  it('fails naming the series and row when two values share the grain', async () => {
    await stage([
      ['2019-03-31T23:59:59Z', '2019-04-26T12:30:00Z', 100],
      ['2019-03-31T23:59:59Z', '2019-04-26T12:30:00Z', 105],
    ]);
    await expect(assertInvariants(duck)).rejects.toThrow(
      /duplicate_grain: series x:gdp at 2019-03-31T23:59:59\.000000Z \(available_at 2019-04-26T12:30:00\.000000Z\)/,
    );
  });

  it('refuses a bar that is available before its close', async () => {
    const sink = await StageSink.create(duck);
    sink.addSeries({ ...SERIES, series_id: 'x:px', frequency: 'BD' });
    sink.addObservation({
      series_id: 'x:px',
      timestamp: T('2021-07-20T20:00:00Z'),
      period_start: null,
      available_at: T('2021-07-20T13:30:00Z'),
      value: 1,
      available_at_basis: 'bar_close',
      source_ref: 'r',
    });
    sink.close();
    await runModels(duck, [...OBSERVATION_MODELS, 'invariant_violations']);
    await expect(assertInvariants(duck)).rejects.toThrow(/available_before_timestamp: series x:px/);
  });

  it('rejects a NaN at the edge with the series named', async () => {
    const sink = await StageSink.create(duck);
    expect(() =>
      sink.addObservation({
        series_id: 'x:gdp',
        timestamp: 0,
        period_start: null,
        available_at: Number.NaN,
        value: 1,
        available_at_basis: 'vintage',
        source_ref: 'r',
      }),
    ).toThrow(/series x:gdp, observation #1 .*available_at must be a finite number/);
    sink.close();
  });

  it('rejects a finite but absurd value at the edge (a backstop behind the sources)', async () => {
    const sink = await StageSink.create(duck);
    const row = {
      series_id: 'x:gdp',
      timestamp: 0,
      period_start: null,
      available_at: 0,
      source_ref: 'r',
    } as const;
    expect(() => sink.addObservation({ ...row, value: 1e300, available_at_basis: 'vintage' })).toThrow(
      /series x:gdp, observation #1 \(source_ref r\): 1e\+300 is beyond ±1e15/,
    );
    expect(() => sink.addObservation({ ...row, value: -1e15, available_at_basis: 'vintage' })).toThrow(
      /beyond ±1e15/,
    );
    sink.addObservation({ ...row, value: 9.99e14, available_at_basis: 'vintage' });
    expect(sink.observationCount).toBe(1);
    sink.close();
  });
});

/** Writes the built observations table as Parquet (the universe's form) and returns a glob over it. */
async function writeObservations(dir: string): Promise<string> {
  const path = join(dir, 'observations.parquet');
  await duck.writeParquet(
    `SELECT series_id, "timestamp", period_start, available_at, value, available_at_basis, source_ref
     FROM observations ORDER BY series_id, "timestamp", available_at`,
    path,
  );
  return path;
}

describe('observation_rows without the window (stg_single_vintage)', () => {
  const DAY = 86_400_000_000;
  const row = (series_id: string, day: number, lag = 1) => ({
    series_id,
    timestamp: day * DAY,
    period_start: null,
    available_at: (day + lag) * DAY,
    available_at_basis: 'vintage' as const,
    source_ref: `r:${series_id}`,
  });
  const rowsOf = (d: Duck) =>
    d.all(
      `SELECT series_rank, epoch_us("timestamp") AS ts, epoch_us(available_at) AS av, value, basis_key, ref_key,
              is_first_vintage, shares_grain
       FROM observation_rows ORDER BY series_rank, ts, av`,
    );

  it('flags only series whose timestamps rose strictly in staging order, and gives the rows the window gives', async () => {
    const sink = await StageSink.create(duck);
    // a: rising, in two blocks and a single row; b: rising, row by row, with a withdrawal;
    // c: a revision (two rows on one timestamp); d: a timestamp staged out of order; e: an exact duplicate.
    const block = (series_id: string, days: number[]) => ({
      series_id,
      timestamp: Float64Array.from(days, (t) => t * DAY),
      available_at: Float64Array.from(days, (t) => (t + 1) * DAY),
      value: Float64Array.from(days, (t) => t / 3),
      available_at_basis: 'bar_close' as const,
      source_ref: `r:${series_id}`,
    });
    sink.addObservations(block('a', [1, 2, 3]));
    sink.addObservations(block('a', [4, 6]));
    sink.addObservation({ ...row('a', 9), value: 1.5 });
    sink.addObservation({ ...row('b', 1), value: 7 });
    sink.addWithdrawal(row('b', 2));
    sink.addObservation({ ...row('b', 3), value: 8 });
    sink.addObservation({ ...row('c', 1), value: 5 });
    sink.addObservation({ ...row('c', 1, 30), value: 6 });
    sink.addObservation({ ...row('c', 2), value: 5 });
    sink.addObservations(block('d', [1, 3]));
    sink.addObservations(block('d', [2]));
    sink.addObservation({ ...row('e', 1), value: 4 });
    sink.addObservation({ ...row('e', 1), value: 4 });
    sink.close();
    const flagged = await duck.all(
      `SELECT k.text AS series_id, CAST(v.rows AS INTEGER) AS rows FROM stg_single_vintage AS v
       JOIN stg_keys AS k ON k.kind = 'series' AND k.key = v.series_key ORDER BY 1`,
    );
    expect(flagged).toEqual([
      { series_id: 'a', rows: 6 },
      { series_id: 'b', rows: 3 },
    ]);
    await runModels(duck, OBSERVATION_MODELS);
    const fast = await rowsOf(duck);
    // 6 + 3 rows of a and b, 3 of c, 3 of d, and e's duplicate collapsed to one.
    expect(fast).toHaveLength(16);
    await duck.run('DELETE FROM stg_single_vintage');
    await runModels(duck, OBSERVATION_MODELS);
    expect(await rowsOf(duck)).toEqual(fast);
  });

  it('sends a flagged series through the window when stg_observations holds rows the sink did not stage', async () => {
    const sink = await StageSink.create(duck);
    sink.addObservation({ ...row('a', 1), value: 2 });
    sink.addObservation({ ...row('a', 2), value: 3 });
    sink.close();
    // The same row again, staged around the sink: without the count check it would stay a second row on the grain.
    await duck.run('INSERT INTO stg_observations SELECT * FROM stg_observations WHERE ts_us = $t', {
      t: 2 * DAY,
    });
    await runModels(duck, OBSERVATION_MODELS);
    const rows = await rowsOf(duck);
    expect(rows.map((r) => [Number(r.ts) / DAY, r.value, r.is_first_vintage])).toEqual([
      [1, 2, true],
      [2, 3, true],
    ]);
  });
});

describe('period_start (staged beside the rows, in stg_observation_periods)', () => {
  it('gives each row the period_start it was staged with, and NULL to the rows staged without one', async () => {
    const DAY = 86_400_000_000;
    const sink = await StageSink.create(duck);
    sink.addSeries({ ...SERIES, series_id: 'x:rev', frequency: 'Q' });
    const row = (day: number, periodStart: number | null, lag: number, value: number) => ({
      series_id: 'x:rev',
      timestamp: day * DAY,
      period_start: periodStart === null ? null : periodStart * DAY,
      available_at: (day + lag) * DAY,
      value,
      available_at_basis: 'filing' as const,
      source_ref: 'r',
    });
    // A quarter with its start, its restatement (a second vintage, also with a start), and one without.
    sink.addObservation(row(90, 0, 30, 10));
    sink.addObservation(row(90, 0, 400, 11));
    sink.addObservation(row(181, null, 30, 12));
    sink.addObservations({
      series_id: 'x:bars',
      timestamp: Float64Array.of(DAY, 2 * DAY),
      available_at: Float64Array.of(DAY, 2 * DAY),
      value: Float64Array.of(1, 2),
      available_at_basis: 'bar_close',
      source_ref: 'r',
    });
    sink.addSeries({ ...SERIES, series_id: 'x:bars', frequency: 'BD' });
    sink.close();
    expect(await duck.one('SELECT count(*)::INTEGER AS n FROM stg_observation_periods')).toEqual({ n: 2 });
    await runModels(duck, OBSERVATION_MODELS);
    const got = await duck.all(
      `SELECT series_id, epoch_us("timestamp") / ${DAY} AS day, epoch_us(period_start) / ${DAY} AS start, value
       FROM observations ORDER BY series_id, "timestamp", available_at`,
    );
    expect(got).toEqual([
      { series_id: 'x:bars', day: 1, start: null, value: 1 },
      { series_id: 'x:bars', day: 2, start: null, value: 2 },
      { series_id: 'x:rev', day: 90, start: 0, value: 10 },
      { series_id: 'x:rev', day: 90, start: 0, value: 11 },
      { series_id: 'x:rev', day: 181, start: null, value: 12 },
    ]);
  });
});

describe('withdrawal rows (value NULL, docs/decisions/0007)', () => {
  const Q1 = '2019-03-31T23:59:59Z';
  const Q2 = '2019-06-30T23:59:59Z';
  // Q1: published, revised, withdrawn, withdrawn again (collapses), restored with the first number.
  // Q2: published, withdrawn for good.
  const ROWS: [string, string, number | null][] = [
    [Q1, '2019-04-26T12:30:00Z', 100],
    [Q1, '2019-05-30T12:30:00Z', 101],
    [Q1, '2019-06-27T12:30:00Z', null],
    [Q1, '2019-07-26T12:30:00Z', null],
    [Q1, '2019-08-29T12:30:00Z', 100],
    [Q2, '2019-07-26T12:30:00Z', 200],
    [Q2, '2019-08-29T12:30:00Z', null],
  ];

  it('observations keeps a withdrawal as a NULL row, collapses a repeated one, keeps the restoration', async () => {
    await stage(ROWS);
    const rows = await duck.all<{ t: string; av: string; value: number | null; first: boolean }>(
      `SELECT strftime("timestamp", '%m-%d') AS t, strftime(available_at, '%m-%d') AS av, value,
              is_first_vintage AS first
       FROM observations ORDER BY "timestamp", available_at`,
    );
    expect(rows).toEqual([
      { t: '03-31', av: '04-26', value: 100, first: true },
      { t: '03-31', av: '05-30', value: 101, first: false },
      { t: '03-31', av: '06-27', value: null, first: false },
      { t: '03-31', av: '08-29', value: 100, first: false },
      { t: '06-30', av: '07-26', value: 200, first: true },
      { t: '06-30', av: '08-29', value: null, first: false },
    ]);
    // n_obs counts timestamps that ever had a value; n_revisions every vintage after a timestamp's first.
    const s = await duck.one<{ n_obs: bigint; n_revisions: bigint }>('SELECT n_obs, n_revisions FROM series');
    expect([Number(s.n_obs), Number(s.n_revisions)]).toEqual([2, 4]);
    await expect(assertInvariants(duck)).resolves.toBeUndefined();
  });

  it('as_of_view has no row for a timestamp whose current vintage is a withdrawal', async () => {
    await stage(ROWS);
    const dir = mkdtempSync(join(tmpdir(), 'asof-withdrawal-'));
    try {
      const glob = await writeObservations(dir);
      const sql = modelSql('as_of_view');
      const view = async (asOf: string) =>
        (
          await duck.all<{ t: string; value: number }>(
            `SELECT strftime("timestamp", '%m-%d') AS t, value FROM (${sql})`,
            { observation_files: listValue([glob]), series_id: 'x:gdp', as_of: asOf },
          )
        ).map((r) => [r.t, r.value]);
      expect(await view('2019-06-27T12:29:59Z')).toEqual([['03-31', 101]]);
      expect(await view('2019-06-27T12:30:00Z')).toEqual([]); // withdrawn at its instant
      expect(await view('2019-07-26T12:30:00Z')).toEqual([['06-30', 200]]);
      expect(await view('2019-08-29T12:30:00Z')).toEqual([['03-31', 100]]); // restored; Q2 withdrawn
      expect(await view('infinity')).toEqual([['03-31', 100]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('unit_coverage counts a withdrawn timestamp once, as a point that had a value', async () => {
    await stage(ROWS);
    const dir = mkdtempSync(join(tmpdir(), 'asof-withdrawal-'));
    try {
      const glob = await writeObservations(dir);
      const seriesFile = join(dir, 'series.parquet');
      await duck.writeParquet('SELECT * FROM series ORDER BY series_id', seriesFile);
      const sql = modelSql('unit_coverage');
      const r = await duck.one<{ series: bigint; points: bigint }>(`SELECT series, points FROM (${sql})`, {
        series_file: seriesFile,
        observation_files: listValue([glob]),
        eval_start: '2020-01-01T00:00:00Z',
      });
      expect([Number(r.series), Number(r.points)]).toEqual([1, 2]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("invariant_violations: a withdrawal must follow a value, and may not share a value's grain", async () => {
    await stage([
      [Q1, '2019-04-26T12:30:00Z', null], // nothing to withdraw
      [Q2, '2019-07-26T12:30:00Z', 200],
      [Q2, '2019-07-26T12:30:00Z', null], // a value and a withdrawal at one instant
    ]);
    const v = await duck.all<{ check_name: string; t: string }>(
      `SELECT check_name, strftime("timestamp", '%m-%d') AS t FROM invariant_violations ORDER BY check_name`,
    );
    expect(v).toEqual([
      { check_name: 'duplicate_grain', t: '06-30' },
      { check_name: 'withdrawal_without_value', t: '03-31' },
    ]);
    await expect(assertInvariants(duck)).rejects.toThrow(
      /withdrawal_without_value: series x:gdp at 2019-03-31T23:59:59\.000000Z .*must follow a vintage with a value/,
    );
  });
});
