import { Duck } from '@asof/duck';
import type { MembershipRow, SeriesInput } from '@asof/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { membershipWarnings } from './membership-warnings.ts';
import { createStagingTables, OBSERVATION_MODELS, runModels } from './run-models.ts';
import { StageSink } from './stage-sink.ts';

const T = (iso: string) => Date.parse(iso) * 1000;
const iso = (d: string) => `${d}T00:00:00.000Z`;

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
  await createStagingTables(duck);
});
afterEach(() => duck.close());

function row(
  entity: string,
  source: MembershipRow['source'],
  from: string | null,
  to: string | null,
  availableAt: string | null,
  universe = source === 'membership_csv' ? 'idx' : 'listed',
): MembershipRow {
  return {
    entity_id: entity,
    universe,
    from: from === null ? null : T(from),
    to: to === null ? null : T(to),
    available_at: availableAt === null ? null : T(availableAt),
    source,
    source_ref: 'given',
    effective_from: null,
    effective_to: null,
  };
}

/** Stages `given` membership rows and builds membership and member_spans. */
async function given(rows: MembershipRow[]): Promise<void> {
  const sink = await StageSink.create(duck);
  for (const r of rows) sink.addMembership(r);
  sink.close();
  await runModels(duck, ['membership', 'member_spans']);
}

/** The spans of `entity` as [from, to, member] with dates (null = open). */
async function spans(entity: string): Promise<[string | null, string | null, boolean][]> {
  const rows = await duck.all<{ f: string | null; t: string | null; member: boolean }>(
    `SELECT strftime("from", '%Y-%m-%d') AS f, strftime("to", '%Y-%m-%d') AS t, member
     FROM member_spans WHERE entity_id = $e ORDER BY "from" NULLS FIRST`,
    { e: entity },
  );
  return rows.map((r) => [r.f, r.t, r.member]);
}

describe('membership and member_spans models', () => {
  it('an index interval counts from its announcement, and its end from the removal announcement', async () => {
    // Added (announced) 2021-03-05, removal announced 2021-06-10 in a second version of the interval.
    await given([
      row('A', 'membership_csv', iso('2021-03-05'), null, iso('2021-03-05')),
      row('A', 'membership_csv', iso('2021-03-05'), iso('2021-06-10'), iso('2021-06-10')),
    ]);
    expect(await spans('A')).toEqual([
      [null, '2021-03-05', false],
      ['2021-03-05', '2021-06-10', true],
      ['2021-06-10', null, false],
    ]);
  });

  it('an end is not applied before it was known, even when it is dated earlier', async () => {
    // A retroactive removal: effective 2021-06-01 ("to"), but only published 2021-06-20.
    await given([
      row('A', 'membership_csv', iso('2021-03-05'), null, iso('2021-03-05')),
      row('A', 'membership_csv', iso('2021-03-05'), iso('2021-06-01'), iso('2021-06-20')),
    ]);
    expect(await spans('A')).toEqual([
      [null, '2021-03-05', false],
      ['2021-03-05', '2021-06-20', true],
      ['2021-06-20', null, false],
    ]);
  });

  it('an entity named by an index file is a member only inside one of its index intervals (any index)', async () => {
    await given([
      row('B', 'membership_csv', iso('2021-01-04'), iso('2021-02-01'), iso('2021-01-04'), 'idx1'),
      row('B', 'membership_csv', iso('2021-01-20'), null, iso('2021-01-20'), 'idx2'),
    ]);
    expect(await spans('B')).toEqual([
      [null, '2021-01-04', false],
      ['2021-01-04', null, true],
    ]);
  });

  it('listing: EDGAR intervals win over price bars; an interval from before the records is known from the start', async () => {
    await given([
      // Listed since before EDGAR's records, delisted by a Form 25 accepted 2022-03-01.
      row('C', 'edgar_submissions', null, null, null),
      row('C', 'edgar_submissions', null, iso('2022-03-01'), iso('2022-03-01')),
      // Its price files run on to 2022-03-11 (the removal takes effect 10 days after the filing).
      row('C', 'price_bars', iso('2015-01-02'), null, iso('2015-01-02')),
      row('C', 'price_bars', iso('2015-01-02'), iso('2022-03-12'), iso('2023-01-01')),
      // Price bars alone decide for an instrument without EDGAR rows.
      row('D', 'price_bars', iso('2018-05-01'), null, iso('2018-05-01')),
    ]);
    expect(await spans('C')).toEqual([
      [null, '2022-03-01', true],
      ['2022-03-01', null, false],
    ]);
    expect(await spans('D')).toEqual([
      [null, '2018-05-01', false],
      ['2018-05-01', null, true],
    ]);
  });

  it('an index member must also be listed', async () => {
    await given([
      row('E', 'membership_csv', iso('2020-01-06'), null, iso('2020-01-06')),
      row('E', 'edgar_submissions', null, iso('2021-09-01'), iso('2021-09-01')),
      row('E', 'edgar_submissions', null, null, null),
    ]);
    expect(await spans('E')).toEqual([
      [null, '2020-01-06', false],
      ['2020-01-06', '2021-09-01', true],
      ['2021-09-01', null, false],
    ]);
  });

  it('keeps one row per interval version: of two sharing the grain, the later end (open latest)', async () => {
    await given([
      row('F', 'price_bars', iso('2019-01-02'), iso('2019-06-01'), iso('2020-01-01')),
      row('F', 'price_bars', iso('2019-01-02'), null, iso('2020-01-01')),
      row('F', 'price_bars', iso('2019-01-02'), iso('2019-03-01'), iso('2020-01-01')),
    ]);
    const m = await duck.all<{ t: string | null }>(`SELECT strftime("to", '%Y-%m-%d') AS t FROM membership`);
    expect(m).toEqual([{ t: null }]);
  });

  it('the sink refuses an interval that ends before it starts, naming entity and source', async () => {
    const sink = await StageSink.create(duck);
    expect(() =>
      sink.addMembership(row('G', 'membership_csv', iso('2021-02-01'), iso('2021-01-01'), iso('2021-02-01'))),
    ).toThrow(/membership of G in idx \(membership_csv, given\): to must be after from/);
    expect(() => sink.addMembership(row('G', 'price_bars', iso('2021-02-01'), null, null))).toThrow(
      /available_at may be null only for an interval that began before the records/,
    );
    sink.close();
  });
});

describe('series universe_kind, eval targets and warnings with membership', () => {
  const base: SeriesInput = {
    series_id: 'px:AAA:close',
    source: 'test',
    source_key: 'AAA',
    title: 'AAA',
    unit: 'USD',
    frequency: 'Q',
    scope: 'Country',
    category: 'Macro Indicators',
    detail_category: 'Gdp',
    entity_id: 'ticker:AAA',
    entity_name: 'AAA',
    currency: 'USD',
    seasonal_adjustment: null,
    fiscal_year_end: null,
    is_synthetic: false,
    universe_kind: 'static',
  };

  /** Quarterly rows 2018Q1… for `n` quarters of series `id`, released 30 days after each quarter. */
  function quarters(sink: StageSink, id: string, n: number): void {
    for (let i = 0; i < n; i++) {
      const end = Date.UTC(2018, 3 * (i + 1), 1) * 1000 - 1;
      sink.addObservation({
        series_id: id,
        timestamp: end,
        period_start: null,
        available_at: end + 30 * 86_400_000_000,
        value: i + 1,
        available_at_basis: 'vintage',
        source_ref: 'r',
      });
    }
  }

  async function build(memberships: MembershipRow[]): Promise<void> {
    await duck.run("INSERT INTO registry_units VALUES ('Country','Macro Indicators','Gdp','Q',true,true)");
    await duck.run("INSERT INTO registry_horizons VALUES ('Q',4,4)");
    const sink = await StageSink.create(duck);
    // AAA: 2018Q1…2020Q2 — 2 quarters from eval_start 2020-01-01, short of one origin + 4 target steps.
    sink.addSeries(base);
    quarters(sink, base.series_id, 10);
    // BBB: the same history, its entity not named anywhere.
    sink.addSeries({ ...base, series_id: 'px:BBB:close', entity_id: 'ticker:BBB', source_key: 'BBB' });
    quarters(sink, 'px:BBB:close', 10);
    for (const m of memberships) sink.addMembership(m);
    sink.close();
    await runModels(
      duck,
      [...OBSERVATION_MODELS, 'series_stats', 'membership', 'member_spans', 'series', 'short_eval_series'],
      { eval_start: '2020-01-01T00:00:00Z' },
    );
  }

  it('an entity named by an index file is point_in_time; its exit keeps a short series an eval target', async () => {
    await build([
      row('ticker:AAA', 'membership_csv', iso('2017-01-03'), null, iso('2017-01-03')),
      row('ticker:AAA', 'membership_csv', iso('2017-01-03'), iso('2020-07-15'), iso('2020-07-15')),
      row('ticker:GONE', 'membership_csv', iso('2017-01-03'), null, iso('2017-01-03')),
    ]);
    const s = await duck.all<{ series_id: string; universe_kind: string; eval_target: boolean }>(
      'SELECT series_id, universe_kind, eval_target FROM series ORDER BY series_id',
    );
    expect(s).toEqual([
      { series_id: 'px:AAA:close', universe_kind: 'point_in_time', eval_target: true },
      { series_id: 'px:BBB:close', universe_kind: 'static', eval_target: false },
    ]);
    expect(
      (await duck.all<{ series_id: string }>('SELECT series_id FROM short_eval_series')).map(
        (r) => r.series_id,
      ),
    ).toEqual(['px:BBB:close']);
    const w = await membershipWarnings(duck, []);
    expect(w.map((x) => [x.code, x.count])).toEqual([
      ['SURVIVORSHIP', 1],
      ['MEMBERSHIP_WITHOUT_SERIES', 1],
    ]);
    expect(w[1].message).toContain('ticker:GONE');
    // A source's own survivorship warning is not repeated.
    expect(
      (await membershipWarnings(duck, [{ code: 'SURVIVORSHIP', message: 'x' }])).map((x) => x.code),
    ).toEqual(['MEMBERSHIP_WITHOUT_SERIES']);
  });

  it('the last bar of a price file is no exit: the short series stays out', async () => {
    await build([
      row('ticker:AAA', 'price_bars', iso('2018-03-30'), null, iso('2018-03-30')),
      row('ticker:AAA', 'price_bars', iso('2018-03-30'), iso('2020-07-01'), iso('2021-01-01')),
    ]);
    const s = await duck.one<{ eval_target: boolean; universe_kind: string }>(
      "SELECT eval_target, universe_kind FROM series WHERE series_id = 'px:AAA:close'",
    );
    expect(s).toEqual({ eval_target: false, universe_kind: 'static' });
  });
});
