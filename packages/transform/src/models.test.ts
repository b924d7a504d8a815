import { Duck } from '@asof/duck';
import type { SeriesInput } from '@asof/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertInvariants, createStagingTables, runModels } from './run-models.ts';
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

async function stage(rows: [string, string, number][], series: SeriesInput[] = [SERIES]) {
  const sink = await StageSink.create(duck);
  for (const s of series) sink.addSeries(s);
  for (const [ts, av, value] of rows) {
    sink.addObservation({
      series_id: 'x:gdp',
      timestamp: T(ts),
      period_start: null,
      available_at: T(av),
      value,
      available_at_basis: 'vintage',
      source_ref: av,
    });
  }
  sink.close();
  await runModels(duck, ['observations', 'series', 'invariant_violations'], {
    eval_start: '2020-01-01T00:00:00Z',
  });
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
      ['2020-03-31T23:59:59Z', '2020-04-29T12:30:00Z', 5], // something to evaluate
    ]);
    expect((await duck.one<{ e: boolean }>('SELECT eval_target AS e FROM series')).e).toBe(true);
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
    await runModels(duck, ['observations', 'invariant_violations']);
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
});
