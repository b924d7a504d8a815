import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { endOfDayMicros, isoToMicros, microsToIso } from '@asof/calendar';
import { CollectingSink, type ObservationRow, SeriesInput } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { isVendorAdjustedSeriesId, mapPricesToAtomic, priceSeriesId } from './map-prices-to-atomic.ts';
import { parseStooqCsv } from './parse-stooq-csv.ts';
import { parseYahooChart } from './parse-yahoo-chart.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
const has = existsSync(dir);
const read = (f: string) => readFileSync(`${dir}${f}`, 'utf8');

/** SPEC §1 as-of view: per (series, timestamp) the row with the greatest available_at <= t. */
function asOf(rows: ObservationRow[], t: number): Map<string, ObservationRow> {
  const out = new Map<string, ObservationRow>();
  for (const r of rows) {
    if (r.available_at > t) continue;
    const key = `${r.series_id}|${r.timestamp}`;
    const prev = out.get(key);
    if (!prev || r.available_at > prev.available_at) out.set(key, r);
  }
  return out;
}

const close = (sink: CollectingSink, id: string, date: string): ObservationRow[] =>
  sink.observations.filter((o) => o.series_id === id && microsToIso(o.timestamp).startsWith(date));

describe('priceSeriesId', () => {
  it('separates as-traded, vendor-adjusted and synthetic ids', () => {
    expect(priceSeriesId('nvda', 'close')).toBe('px:NVDA:close');
    expect(priceSeriesId('AAPL', 'close', { vendorAdjusted: true })).toBe('pxadj:AAPL:close');
    expect(priceSeriesId('SYNA', 'tr', { synthetic: true })).toBe('syn:px:SYNA:tr');
    expect(isVendorAdjustedSeriesId('pxadj:AAPL:close')).toBe(true);
    expect(isVendorAdjustedSeriesId('px:AAPL:close')).toBe(false);
  });
});

describe.skipIf(!has)('mapPricesToAtomic on real files (needs ../shared/fixtures/real)', () => {
  const nvda = () => {
    const sink = new CollectingSink();
    const result = mapPricesToAtomic(
      [
        {
          parsed: parseYahooChart(read('yahoo_chart_NVDA_2021-02-01_2022-01-28_split4to1.json')),
          downloadedAt: isoToMicros('2025-02-22T12:00:00Z'),
          sourceRef: 'sha-nvda',
          knownSplits: [{ exDate: '2024-06-10', ratio: 10 }],
        },
      ],
      sink,
      { symbol: 'NVDA', kind: 'equity', source: 'yahoo', totalReturn: true },
    );
    return { sink, result };
  };

  it('emits five valid OHLCV series (+ total return) classified by the taxonomy', () => {
    const { sink, result } = nvda();
    expect(result.seriesIds).toEqual([
      'px:NVDA:open',
      'px:NVDA:high',
      'px:NVDA:low',
      'px:NVDA:close',
      'px:NVDA:volume',
      'px:NVDA:tr',
    ]);
    for (const s of sink.series) expect(() => SeriesInput.parse(s)).not.toThrow();
    const c = sink.series.find((s) => s.series_id === 'px:NVDA:close')!;
    expect(c).toMatchObject({
      detail_category: 'Equity OHLCV Close',
      frequency: 'BD',
      unit: 'USD',
      entity_id: 'ticker:NVDA',
    });
    expect(sink.series.find((s) => s.series_id === 'px:NVDA:volume')?.unit).toBe('shares');
    expect(result.observations).toBe(252 * 6);
    expect(
      sink.observations.filter((o) => !Number.isFinite(o.value) || o.available_at < o.timestamp),
    ).toEqual([]);
  });

  it('dates bars at the New York session close, DST-correct, and stores as-traded values', () => {
    const { sink } = nvda();
    const [c20] = close(sink, 'px:NVDA:close', '2021-07-20');
    expect(microsToIso(c20.available_at)).toBe('2021-07-20T20:00:00.000000Z');
    expect(c20.available_at_basis).toBe('bar_close');
    expect(c20.source_ref).toBe('sha-nvda');
    const [d1] = close(sink, 'px:NVDA:close', '2021-12-01');
    expect(microsToIso(d1.available_at)).toBe('2021-12-01T21:00:00.000000Z');
    const [c19] = close(sink, 'px:NVDA:close', '2021-07-19');
    expect(c19.value / c20.value).toBeGreaterThan(3.8);
    expect(c19.value / c20.value).toBeLessThan(4.2);
    // Total return is continuous over the split (a 4:1 cut in the close, under 5% in the index).
    const [t19] = close(sink, 'px:NVDA:tr', '2021-07-19');
    const [t20] = close(sink, 'px:NVDA:tr', '2021-07-20');
    expect(Math.abs(t20.value / t19.value - 1)).toBeLessThan(0.05);
  });

  it('puts splits into corporate_actions with their own available_at (ex-date 09:30 New York)', () => {
    const { sink } = nvda();
    expect(
      sink.corporateActions.map((a) => [
        a.ex_date,
        a.kind,
        a.value,
        microsToIso(a.available_at),
        a.source_ref,
      ]),
    ).toEqual([
      ['2021-07-20', 'split', 4, '2021-07-20T13:30:00.000000Z', 'sha-nvda'],
      ['2024-06-10', 'split', 10, '2024-06-10T13:30:00.000000Z', 'pipeline:known_splits'],
    ]);
  });

  it('puts the AAPL 2020-08-31 split and 2020-11-06 dividend into corporate_actions', () => {
    const sink = new CollectingSink();
    mapPricesToAtomic(
      [
        {
          parsed: parseYahooChart(read('yahoo_chart_AAPL_2020-08-31_2020-11-06_split4to1_dividend.json')),
          downloadedAt: isoToMicros('2025-02-20T12:00:00Z'),
          sourceRef: 'sha-aapl',
          knownSplits: [],
        },
      ],
      sink,
      { symbol: 'AAPL', kind: 'equity', source: 'yahoo' },
    );
    expect(sink.corporateActions.map((a) => [a.entity_id, a.ex_date, a.kind, a.value])).toEqual([
      ['ticker:AAPL', '2020-08-31', 'split', 4],
      ['ticker:AAPL', '2020-11-06', 'dividend', 0.205],
    ]);
    // The split is already in effect on its ex-date bar: 2020-08-31 close 129.04 is as traded.
    expect(close(sink, 'px:AAPL:close', '2020-08-31')[0].value).toBeCloseTo(129.04, 2);
    expect(sink.warnings.map((w) => w.code)).not.toContain('PRICES_SPLITS_UNVERIFIED');
  });

  it('reads two Stooq downloads as vintages: nothing from 2026 is visible as of 2019-06-01', () => {
    const sink = new CollectingSink();
    const old = parseStooqCsv(read('stooq_aapl_us_d_1984-09-07_2019-05-03.csv'), 'aapl 2019');
    const recent = parseStooqCsv(read('stooq_aapl_us_d_1984-09-07_2026-01-09.csv'), 'aapl 2026');
    const result = mapPricesToAtomic(
      [
        {
          parsed: recent,
          downloadedAt: endOfDayMicros('2026-01-17'),
          sourceRef: 'sha-2026',
          where: 'aapl 2026',
        },
        {
          parsed: old,
          downloadedAt: endOfDayMicros('2019-05-08'),
          sourceRef: 'sha-2019',
          where: 'aapl 2019',
        },
      ],
      sink,
      { symbol: 'AAPL', kind: 'equity', source: 'stooq' },
    );
    // Recognised as vendor-adjusted and flagged.
    expect(result.seriesIds.every(isVendorAdjustedSeriesId)).toBe(true);
    expect(
      Object.values(result.seriesFlags).every(
        (f) => f.vendor_adjustment === 'split_dividend' && !f.as_traded,
      ),
    ).toBe(true);
    const warn = sink.warnings.find((w) => w.code === 'PRICES_VENDOR_ADJUSTED');
    expect(warn?.message).toContain('cannot be turned back into as-traded prices');
    expect(sink.series.every((s) => s.title.includes('vendor-adjusted'))).toBe(true);
    // The ragged row is reported.
    expect(sink.warnings.find((w) => w.code === 'PRICES_RAGGED_ROW')?.message).toContain('2010-04-26');

    const view2019 = asOf(sink.observations, isoToMicros('2019-06-01T00:00:00Z'));
    expect(view2019.size).toBeGreaterThan(8000 * 4);
    expect([...view2019.values()].filter((r) => r.source_ref !== 'sha-2019')).toEqual([]);
    const c = [...view2019.values()].find(
      (r) => r.series_id === 'pxadj:AAPL:close' && microsToIso(r.timestamp).startsWith('2019-05-03'),
    );
    expect(c?.value).toBe(211.75);
    expect([...view2019.values()].some((r) => r.timestamp > isoToMicros('2019-05-04T00:00:00Z'))).toBe(false);
    // Latest view: the 2026 numbers, as revisions dated at the 2026 download.
    const latest = asOf(sink.observations, Number.MAX_SAFE_INTEGER);
    const c2 = [...latest.values()].find(
      (r) => r.series_id === 'pxadj:AAPL:close' && microsToIso(r.timestamp).startsWith('2019-05-03'),
    );
    expect(c2?.value).toBeCloseTo(50.7228, 4);
    expect(c2?.available_at_basis).toBe('vintage');
    expect(result.revisions).toBeGreaterThan(40_000);
  }, 60_000);

  it('rebases the total-return index when earlier history arrives, as a revision at that download', () => {
    const sink = new CollectingSink();
    const r = mapPricesToAtomic(
      [
        {
          parsed: parseYahooChart(read('yahoo_chart_AAPL_2020-08-31_2020-11-06_split4to1_dividend.json')),
          downloadedAt: isoToMicros('2025-02-20T12:00:00Z'),
          sourceRef: 'late',
          knownSplits: [],
        },
        {
          parsed: parseYahooChart(read('yahoo_chart_AAPL_2020-01-02.json')),
          downloadedAt: isoToMicros('2025-02-25T12:00:00Z'),
          sourceRef: 'early',
          knownSplits: [{ exDate: '2020-08-31', ratio: 4 }],
        },
      ],
      sink,
      { symbol: 'AAPL', kind: 'equity', source: 'yahoo', totalReturn: true },
    );
    const tr = sink.observations.filter((o) => o.series_id === 'px:AAPL:tr');
    const revised = tr.filter((o) => o.available_at_basis === 'vintage');
    expect(r.revisions).toBe(49); // the 49 Aug–Nov index values; OHLCV untouched
    expect(revised.length).toBe(49);
    expect(revised.every((o) => o.available_at === isoToMicros('2025-02-25T12:00:00Z'))).toBe(true);
    const aug31 = asOf(tr, isoToMicros('2025-02-21T00:00:00Z'));
    expect([...aug31.values()].find((o) => microsToIso(o.timestamp).startsWith('2020-08-31'))?.value).toBe(
      100,
    );
    // The early bar gets base 100 at its close; nothing about later closes leaks into it.
    const jan2 = tr.find((o) => microsToIso(o.timestamp).startsWith('2020-01-02'))!;
    expect(jan2.value).toBe(100);
    expect(jan2.available_at_basis).toBe('bar_close');
    // 2020-01-02 as traded: 75.0875 x 4 = 300.35
    expect(close(sink, 'px:AAPL:close', '2020-01-02')[0].value).toBeCloseTo(300.35, 2);
  });

  it('does not re-emit unchanged values from a second download', () => {
    const sink = new CollectingSink();
    const text = read('yahoo_chart_MSFT_2021-02-01_2022-01-28_dividends.json');
    const r = mapPricesToAtomic(
      [
        {
          parsed: parseYahooChart(text),
          downloadedAt: isoToMicros('2025-02-21T22:00:00Z'),
          sourceRef: 'a',
          knownSplits: [],
        },
        {
          parsed: parseYahooChart(text),
          downloadedAt: isoToMicros('2025-03-01T22:00:00Z'),
          sourceRef: 'b',
          knownSplits: [],
        },
      ],
      sink,
      { symbol: 'MSFT', kind: 'equity', source: 'yahoo' },
    );
    expect(r.revisions).toBe(0);
    expect(r.observations).toBe(252 * 5);
    expect(sink.corporateActions.filter((a) => a.kind === 'dividend').map((a) => a.value)).toEqual([
      0.56, 0.56, 0.56, 0.62,
    ]);
  });
});

describe('listing span from the price files (membership rows, source price_bars)', () => {
  const parsed = (dates: string[]) => ({
    format: 'user_csv' as const,
    symbol: 'LIST',
    currency: 'USD',
    timeZone: 'America/New_York',
    instrumentType: 'EQUITY',
    name: null,
    bars: dates.map((date, i) => ({
      date,
      open: 10,
      high: 11,
      low: 9,
      close: 10 + i,
      volume: 100,
      row: i + 2,
    })),
    splits: [],
    dividends: [],
    splitsListed: true,
    adjustment: 'none' as const,
    marketTimeMicros: null,
    issues: [],
  });

  it('opens at the first bar close and, once a later download shows no more bars, closes after the last', () => {
    const sink = new CollectingSink();
    mapPricesToAtomic(
      [
        {
          parsed: parsed(['2021-03-01', '2021-03-02']),
          downloadedAt: isoToMicros('2021-03-02T22:00:00Z'),
          sourceRef: 'a',
        },
        {
          parsed: parsed(['2021-03-02', '2021-03-03']),
          downloadedAt: isoToMicros('2021-06-01T12:00:00Z'),
          sourceRef: 'b',
        },
      ],
      sink,
      { symbol: 'LIST', kind: 'equity', source: 'user_csv', vendorLagMicros: 60_000_000 },
    );
    expect(
      sink.memberships.map((m) => [
        m.entity_id,
        m.universe,
        m.source,
        microsToIso(m.from!),
        m.to === null ? null : microsToIso(m.to),
        microsToIso(m.available_at!),
        m.source_ref,
        m.effective_from,
        m.effective_to,
      ]),
    ).toEqual([
      // 16:00 New York (EST) = 21:00Z; public a minute later (the vendor lag).
      [
        'ticker:LIST',
        'listed',
        'price_bars',
        '2021-03-01T21:00:00.000000Z',
        null,
        '2021-03-01T21:01:00.000000Z',
        'a',
        '2021-03-01',
        null,
      ],
      [
        'ticker:LIST',
        'listed',
        'price_bars',
        '2021-03-01T21:00:00.000000Z',
        '2021-03-03T21:00:00.000001Z',
        '2021-06-01T12:00:00.000000Z',
        'b',
        '2021-03-01',
        '2021-03-03',
      ],
    ]);
  });

  it('has no end while the latest download was made at the last bar', () => {
    const sink = new CollectingSink();
    mapPricesToAtomic(
      [{ parsed: parsed(['2021-03-01']), downloadedAt: isoToMicros('2021-03-01T21:00:00Z'), sourceRef: 'a' }],
      sink,
      { symbol: 'LIST', kind: 'equity', source: 'user_csv' },
    );
    expect(sink.memberships.map((m) => m.to)).toEqual([null]);
  });
});
