import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, SHARED, scratchOut } from './helpers.ts';

const SEC = join(SHARED, 'fixtures/real/sec');
const FRED = join(SHARED, 'fixtures/real/fred');

type Row = { timestamp: string; value: number; available_at: string };

const nyDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' });
/** A quarter's period-end timestamp (23:59:59.999999 New York, in UTC) → FRED's date, the quarter start. */
function quarterStartOf(timestamp: string): string {
  const end = nyDate.format(new Date(`${timestamp.slice(0, 23)}Z`));
  return `${end.slice(0, 5)}${String(Number(end.slice(5, 7)) - 2).padStart(2, '0')}-01`;
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
  });
});

describe('live ingests without credentials', () => {
  it('refuse to start, saying which variable to set', async () => {
    const saved = { ua: process.env.ASOF_SEC_USER_AGENT, key: process.env.ASOF_FRED_API_KEY };
    delete process.env.ASOF_SEC_USER_AGENT;
    delete process.env.ASOF_FRED_API_KEY;
    try {
      const edgar = await asof('ingest', 'edgar', '--tickers', 'AAPL', '--out', 'out/test-no-ua');
      expect(edgar.code).not.toBe(0);
      expect(edgar.stderr).toMatch(/ASOF_SEC_USER_AGENT/);
      const fred = await asof('ingest', 'fred', '--series', 'GDP', '--out', 'out/test-no-key');
      expect(fred.code).not.toBe(0);
      expect(fred.stderr).toMatch(/ASOF_FRED_API_KEY/);
    } finally {
      if (saved.ua !== undefined) process.env.ASOF_SEC_USER_AGENT = saved.ua;
      if (saved.key !== undefined) process.env.ASOF_FRED_API_KEY = saved.key;
    }
  });
});
