import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, SHARED, scratchOut } from './helpers.ts';

const SEC = join(SHARED, 'fixtures/real/sec');
const FRED = join(SHARED, 'fixtures/real/fred');
const PRICES = join(SHARED, 'fixtures/real/prices');

type Row = { timestamp: string; value: number; available_at: string };

const nyDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' });
/** A quarter's period-end timestamp (23:59:59.999999 New York, in UTC) → FRED's date, the quarter start. */
function quarterStartOf(timestamp: string): string {
  const end = nyDate.format(new Date(`${timestamp.slice(0, 23)}Z`));
  return `${end.slice(0, 5)}${String(Number(end.slice(5, 7)) - 2).padStart(2, '0')}-01`;
}
/** `[series_id, unit]` of every series of a built output without a unit (issue 20: every source fills it). */
async function seriesWithoutUnit(dir: string): Promise<string[][]> {
  const { Duck, quoteLiteral } = await import('@asof/duck');
  const duck = await Duck.open({ threads: 1 });
  try {
    const rows = await duck.all<{ series_id: string; unit: string | null }>(
      `SELECT series_id, unit FROM read_parquet(${quoteLiteral(join(dir, 'series.parquet'))})
       WHERE coalesce(trim(unit), '') = '' ORDER BY series_id`,
    );
    return rows.map((x) => [x.series_id, String(x.unit)]);
  } finally {
    duck.close();
  }
}
async function show(id: string, data: string, asOf?: string): Promise<Row[]> {
  const r = await asof('show', id, '--data', data, ...(asOf ? ['--as-of', asOf] : []), '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe.skipIf(!existsSync(SEC))('asof ingest edgar --raw-dir (needs ../shared/fixtures/real/sec)', () => {
  const out = scratchOut('ingest-edgar');
  afterAll(() => removeOutput(out.abs));

  it('replays the recorded EDGAR files with point-in-time EPS and skips the IFRS filer', async () => {
    const r = await asof('ingest', 'edgar', '--raw-dir', SEC, '--out', out.rel, '--json');
    expect(r.code, r.stderr).toBe(0);
    const warnings = JSON.parse(r.stdout).warnings as { code: string; message: string }[];
    expect(
      warnings.some(
        (w) => w.code === 'EDGAR_COMPANY_SKIPPED' && /0001997711|Logistic Properties/i.test(w.message),
      ),
    ).toBe(true);
    const id = 'edgar:0001045810:eps-basic:A';
    const fy2021 = (rows: Row[]) => rows.find((x) => x.timestamp.startsWith('2021-02-01T04:59:59'))?.value;
    expect(fy2021(await show(id, out.rel, '2021-06-01'))).toBe(7.02);
    expect(fy2021(await show(id, out.rel, '2023-06-01'))).toBe(1.76);
    expect(await seriesWithoutUnit(out.abs)).toEqual([]);
  });

  it('gives AAPL an EDGAR listing interval: listed before the records held, its notes removals no end', async () => {
    // Issue 20: Form 25 / 25-NSE / 15 filings end a listing only under the file number of the company's
    // periodic reports (Apple's 25-NSE are Nasdaq removing matured notes, under 000-10030; its Form 25 of
    // 2019 is a move between exchanges, filed beside an 8-A12B). TSLA has no companyfacts here, so no series
    // and no rows; its interval is tested in packages/source-edgar (listing-intervals.test.ts).
    const { Duck, quoteLiteral } = await import('@asof/duck');
    const duck = await Duck.open({ threads: 1 });
    try {
      const rows = await duck.all<{ entity_id: string; f: string | null; t: string | null; source: string }>(
        `SELECT entity_id, "from" AS f, "to" AS t, source
         FROM read_parquet(${quoteLiteral(join(out.abs, 'membership.parquet'))}) ORDER BY ALL`,
      );
      expect(rows).toEqual([{ entity_id: '0000320193', f: null, t: null, source: 'edgar_submissions' }]);
    } finally {
      duck.close();
    }
  });
});

describe.skipIf(!existsSync(FRED))('asof ingest fred --raw-dir (needs ../shared/fixtures/real/fred)', () => {
  const out = scratchOut('ingest-fred');
  afterAll(() => removeOutput(out.abs));

  it('replays the recorded FRED responses and fredgraph files', async () => {
    const r = await asof('ingest', 'fred', '--raw-dir', FRED, '--out', out.rel);
    expect(r.code, r.stderr).toBe(0);
    const gdp = await show('fred:GDP', out.rel, '2019-01-01');
    expect(gdp.length).toBeGreaterThan(250);
    for (const row of gdp) expect(row.available_at <= '2019-01-01T00:00:00.000000Z').toBe(true);

    // Acceptance: the GDP as-of view at 2019-01-01 (end of that day, New York), through the built universe
    // and models/as_of_view.sql, equals date for date the latest vintages of the realtime_end=2019-01-01
    // response: all 291 dates, the four 1946 quarters withdrawn by BEA (".") having no row.
    const ref = (
      JSON.parse(
        readFileSync(
          join(FRED, 'fred_api_series_observations_GDP_realtime_1776-07-04_to_2019-01-01.json'),
          'utf8',
        ),
      ).observations as { date: string; realtime_end: string; value: string }[]
    ).filter((o) => o.realtime_end === '2019-01-01');
    expect(ref).toHaveLength(291);
    expect(ref.filter((o) => o.value === '.')).toHaveLength(4);
    const view = await show('fred:GDP', out.rel, '2019-01-02T04:59:59.999999Z');
    const byQuarterStart = new Map(view.map((row) => [quarterStartOf(row.timestamp), row.value]));
    expect(byQuarterStart.size).toBe(view.length);
    for (const o of ref) {
      expect([o.date, byQuarterStart.get(o.date) ?? '.']).toEqual([
        o.date,
        o.value === '.' ? '.' : Number(o.value),
      ]);
    }
    expect(view).toHaveLength(287);
    // fredgraph CSVs carry no units: the FRED catalog gives them (fred:UNRATE was '' before issue 20).
    expect(await seriesWithoutUnit(out.abs)).toEqual([]);
    const { Duck, quoteLiteral } = await import('@asof/duck');
    const duck = await Duck.open({ threads: 1 });
    const units = await duck.all<{ series_id: string; unit: string }>(
      `SELECT series_id, unit FROM read_parquet(${quoteLiteral(join(out.abs, 'series.parquet'))})
       WHERE series_id IN ('fred:UNRATE', 'fred:CPIAUCSL', 'fred:GDP') ORDER BY series_id`,
    );
    duck.close();
    expect(units).toEqual([
      { series_id: 'fred:CPIAUCSL', unit: 'Index 1982-1984=100' },
      { series_id: 'fred:GDP', unit: 'Billions of Dollars' },
      { series_id: 'fred:UNRATE', unit: 'Percent' },
    ]);
  });
});

describe.skipIf(!existsSync(PRICES))(
  'asof ingest prices --raw-dir on the whole real prices folder (needs ../shared/fixtures/real/prices)',
  () => {
    const out = scratchOut('ingest-prices');
    afterAll(() => removeOutput(out.abs));

    it("reads each symbol's corporate actions from all its files: AAPL's 2020-01-02 close is 300.35 as traded, once", async () => {
      const r = await asof('ingest', 'prices', '--raw-dir', PRICES, '--out', out.rel, '--json');
      expect(r.code, r.stderr).toBe(0);
      const warnings = JSON.parse(r.stdout).warnings as { code: string; message: string }[];
      const of = (code: string) => warnings.filter((w) => w.code === code).map((w) => w.message);

      // Both Yahoo files of AAPL's 2020-01-02 bar were made after the 4:1 split of 2020-08-31, which only the
      // Aug–Nov chart lists: the 2025 chart by its market time, the v7 CSV (no date recorded, last bar
      // 2020-01-02) by its close matching the chart's. Each gives 300.35 as traded: one row, at the bar close.
      expect(of('PRICES_DOWNLOAD_TIME_INFERRED')).toEqual([
        expect.stringMatching(
          /^yahoo_download_AAPL_2020-01-02_history\.csv: .*yahoo_chart_AAPL_2020-01-02\.json .*4:1 split of 2020-08-31 undone/,
        ),
      ]);
      const { Duck, quoteLiteral } = await import('@asof/duck');
      const duck = await Duck.open({ threads: 1 });
      const bd = quoteLiteral(join(out.abs, 'observations/frequency=BD/*.parquet'));
      const rows = await duck.all<{ value: number; available_at: string; basis: string }>(
        `SELECT value, strftime(available_at, '%Y-%m-%dT%H:%M:%SZ') AS available_at, available_at_basis AS basis
         FROM read_parquet(${bd}) WHERE series_id = 'px:AAPL:close' AND "timestamp" = '2020-01-02T21:00:00Z'`,
      );
      const actions = await duck.all<{ entity_id: string; ex_date: string; value: number }>(
        `SELECT entity_id, strftime(ex_date, '%Y-%m-%d') AS ex_date, value
         FROM read_parquet(${quoteLiteral(join(out.abs, 'corporate_actions.parquet'))}) WHERE kind = 'split' ORDER BY ALL`,
      );
      duck.close();
      expect(rows).toHaveLength(1);
      expect(rows[0].value).toBeCloseTo(300.35, 2);
      expect(rows[0]).toMatchObject({ available_at: '2020-01-02T21:00:00Z', basis: 'bar_close' });
      for (const asOf of ['2020-01-03', '2021-06-01', undefined]) {
        const jan2 = (await show('px:AAPL:close', out.rel, asOf)).find((x) =>
          x.timestamp.startsWith('2020-01-02'),
        );
        expect(jan2?.value, asOf).toBeCloseTo(300.35, 2);
      }
      expect(actions).toEqual([
        { entity_id: 'ticker:AAPL', ex_date: '2020-08-31', value: 4 },
        { entity_id: 'ticker:NVDA', ex_date: '2021-07-20', value: 4 },
      ]);

      // NVDA's 2021 4:1 split stays undone: the as-traded close drops about 4x at the ex-date.
      const nvda = await show('px:NVDA:close', out.rel);
      const close = (d: string) => nvda.find((x) => x.timestamp.startsWith(d))!.value;
      expect(close('2021-07-19') / close('2021-07-20')).toBeGreaterThan(3.8);
      expect(close('2021-07-19') / close('2021-07-20')).toBeLessThan(4.3);

      // The Aug–Nov chart's window reaches into the 2020-01-02 file's gap: no warning names that file. The gap
      // after that window, and NVDA's after 2022-01-28 (its 2024 10:1 split), no file covers: still warned.
      const unknown = of('PRICES_SPLITS_AFTER_RANGE_UNKNOWN');
      expect(unknown.some((m) => m.includes('yahoo_chart_AAPL_2020-01-02.json'))).toBe(false);
      expect(
        unknown.some((m) => m.startsWith('yahoo_chart_AAPL_2020-08-31_2020-11-06_split4to1_dividend.json:')),
      ).toBe(true);
      expect(
        unknown.some((m) => m.startsWith('yahoo_chart_NVDA_2021-02-01_2022-01-28_split4to1.json:')),
      ).toBe(true);
      expect(await seriesWithoutUnit(out.abs)).toEqual([]);
    }, 120_000);
  },
);

describe('live ingests without credentials', () => {
  it('refuse to start, saying which variable to set', async () => {
    const saved = { ua: process.env.ASOF_SEC_USER_AGENT, key: process.env.ASOF_FRED_API_KEY };
    delete process.env.ASOF_SEC_USER_AGENT;
    delete process.env.ASOF_FRED_API_KEY;
    try {
      const edgar = await asof('ingest', 'edgar', '--tickers', 'AAPL', '--out', scratchOut('no-ua').rel);
      expect(edgar.code).not.toBe(0);
      expect(edgar.stderr).toMatch(/ASOF_SEC_USER_AGENT/);
      const fred = await asof('ingest', 'fred', '--series', 'GDP', '--out', scratchOut('no-key').rel);
      expect(fred.code).not.toBe(0);
      expect(fred.stderr).toMatch(/ASOF_FRED_API_KEY/);
    } finally {
      if (saved.ua !== undefined) process.env.ASOF_SEC_USER_AGENT = saved.ua;
      if (saved.key !== undefined) process.env.ASOF_FRED_API_KEY = saved.key;
    }
  });
});
