import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findUnit } from './find-unit.ts';
import { defaultRegistry } from './load-registry.ts';
import {
  classifyEmbeddedSeries,
  edgarConceptMap,
  embeddedSeriesMap,
  fredCatalog,
  macroPanelMap,
} from './source-catalogs.ts';

const r = defaultRegistry();

describe('fredCatalog', () => {
  const rows = fredCatalog();

  it('has at least 150 distinct series ids, each in a registry unit at its FRED frequency', () => {
    expect(rows.length).toBeGreaterThanOrEqual(150);
    expect(new Set(rows.map((x) => x.series_id)).size).toBe(rows.length);
    for (const x of rows) expect(findUnit(r, x).frequency).toBe(x.frequency);
  });

  it("gives every series FRED's units label (fredgraph downloads carry none)", () => {
    const units = new Map(rows.map((x) => [x.series_id, x.unit]));
    expect(rows.filter((x) => x.unit.trim() === '')).toEqual([]);
    expect(units.get('UNRATE')).toBe('Percent');
    expect(units.get('CPIAUCSL')).toBe('Index 1982-1984=100');
    expect(units.get('GDPC1')).toBe('Billions of Chained 2017 Dollars');
    expect(units.get('PAYEMS')).toBe('Thousands of Persons');
  });

  it('covers the Country and Inter-country detail categories FRED serves', () => {
    const country = [
      'Treasury Yield',
      'TIPS Yield',
      'Breakeven',
      'Corporate Yield',
      'Credit Spread',
      'Money Market',
      'Mortgage Rate',
      'Term Spread',
      'Forward Inflation',
      'Inflation Expectation',
      'Implied Volatility',
      'US Equity Index',
      'Fin Conditions',
      'Fin Stress',
      'Recession Flag',
      'Recession Prob',
      'Inflation',
      'Labor',
      'Gdp',
      'Housing',
      'Housing Price',
      'Income',
      'Spending',
      'Industrial Production By Industry',
      'Capacity Utilization By Industry',
      'Money',
      'Credit',
      'Sentiment',
    ];
    const served = new Set(rows.filter((x) => x.scope === 'Country').map((x) => x.detail_category));
    expect(country.filter((d) => !served.has(d))).toEqual([]);
    const inter = new Set(
      rows.filter((x) => x.scope === 'Inter-country').map((x) => `${x.category}/${x.detail_category}`),
    );
    for (const d of [
      'Foreign Exchange/FX Pair',
      'Foreign Exchange/FX Index',
      'Commodity/Spot',
      'Global Risk/Uncertainty',
    ]) {
      expect(inter.has(d), d).toBe(true);
    }
  });

  it('marks ids it could not check as unverified instead of leaving them out', () => {
    expect(rows.find((x) => x.series_id === 'DGS10')).toMatchObject({
      verified: true,
      release: 'H.15 Selected Interest Rates',
    });
    expect(rows.some((x) => !x.verified)).toBe(true);
  });
});

describe('edgarConceptMap', () => {
  const map = edgarConceptMap();

  it('covers the 14 FinVerse Fundamentals detail categories in FinVerse names', () => {
    expect(map.map((m) => m.detail_category)).toEqual([
      'Revenue',
      'Net Income',
      'Operating Income',
      'EPS Basic',
      'EPS Diluted',
      'Shares Diluted',
      'Total Assets',
      'Total Liabilities',
      'Stockholders Equity',
      'Cash and Cash Equivalents',
      'Long-Term Debt',
      'Operating Cash Flow',
      'Capital Expenditures',
      'R And D Expense',
    ]);
    for (const m of map) {
      const unit = { scope: 'Individual', category: 'Fundamentals', detail_category: m.detail_category };
      expect(findUnit(r, { ...unit, frequency: 'Q' }).finverse).toBe(true);
      expect(findUnit(r, { ...unit, frequency: 'A' })).toMatchObject({ finverse: false, eval_target: false });
    }
  });

  it('orders revenue fallbacks newest tag first and keeps units consistent with the kind', () => {
    expect(map[0].concepts.slice(0, 3)).toEqual([
      'RevenueFromContractWithCustomerExcludingAssessedTax',
      'Revenues',
      'SalesRevenueNet',
    ]);
    for (const m of map) {
      const want = m.kind === 'per_share' ? ['USD/shares'] : m.kind === 'shares' ? ['shares'] : ['USD'];
      expect(m.units, m.detail_category).toEqual(want);
    }
  });

  const sec = fileURLToPath(new URL('../../../../shared/fixtures/real/sec/', import.meta.url));
  describe.skipIf(!existsSync(sec))('against real companyfacts (needs ../shared/fixtures/real)', () => {
    it('resolves every detail category for AAPL, NVDA and GOOGL in an accepted unit', () => {
      for (const file of [
        'companyfacts_CIK0000320193_AAPL_subset.json',
        'companyfacts_CIK0001045810_NVDA_subset.json',
        'companyfacts_CIK0001652044_GOOGL_subset.json',
      ]) {
        const facts = JSON.parse(readFileSync(sec + file, 'utf8')).facts['us-gaap'] as Record<
          string,
          { units: Record<string, unknown[]> }
        >;
        const missing = map.filter(
          (m) => !m.concepts.some((c) => m.units.some((u) => (facts[c]?.units[u]?.length ?? 0) > 0)),
        );
        expect(
          missing.map((m) => m.detail_category),
          file,
        ).toEqual([]);
      }
    });
  });
});

describe('embeddedSeriesMap', () => {
  const map = embeddedSeriesMap();

  it('maps every embedded series to a registry unit', () => {
    for (const e of map) expect(() => findUnit(r, e), `${e.dataset} ${e.series}`).not.toThrow();
  });

  it('maps S&P 500 close to the FinVerse index unit and the other fields to extensions', () => {
    const sp = map.filter((e) => e.dataset === 'sp500-2000.csv');
    expect(sp.map((e) => [e.field, e.detail_category])).toEqual([
      ['open', 'US Equity Index OHLCV Open'],
      ['high', 'US Equity Index OHLCV High'],
      ['low', 'US Equity Index OHLCV Low'],
      ['close', 'US Equity Index'],
      ['volume', 'US Equity Index OHLCV Volume'],
    ]);
  });

  it('maps synthetic macro and fundamentals to FinVerse units (fundamentals also to A extensions)', () => {
    for (const e of map.filter((x) => x.dataset === 'synthetic-macro'))
      expect(findUnit(r, e).finverse).toBe(true);
    const fund = map.filter((x) => x.dataset === 'synthetic-fundamentals');
    expect(fund.filter((x) => x.frequency === 'Q')).toHaveLength(14);
    expect(fund.filter((x) => x.frequency === 'A')).toHaveLength(14);
    expect(
      classifyEmbeddedSeries('synthetic-fundamentals', 'Revenue', null, { frequency: 'A' })?.frequency,
    ).toBe('A');
    expect(classifyEmbeddedSeries('synthetic-prices', 'etf', 'high')?.detail_category).toBe('ETF OHLCV High');
    expect(classifyEmbeddedSeries('us-employment.csv', 'nonfarm_change')).toBeUndefined();
  });

  const vega = fileURLToPath(new URL('../../../node_modules/vega-datasets/data/', import.meta.url));
  describe.skipIf(!existsSync(vega))(
    'against the vega-datasets files (needs node_modules/vega-datasets)',
    () => {
      it('names exactly the series the real datasets contain', () => {
        const header = readFileSync(`${vega}us-employment.csv`, 'utf8').split('\n')[0].trim().split(',');
        const employment = header.filter((c) => c !== 'month' && c !== 'nonfarm_change');
        expect(employment).toHaveLength(22);
        const mapped = map.filter((e) => e.dataset === 'us-employment.csv');
        expect(mapped.map((e) => e.series).sort()).toEqual([...employment].sort());
        expect(mapped.filter((e) => e.detail_category === 'Labor').map((e) => e.series)).toEqual([
          'nonfarm',
          'private',
        ]);

        const unemployment = [
          ...new Set(
            (
              JSON.parse(readFileSync(`${vega}unemployment-across-industries.json`, 'utf8')) as {
                series: string;
              }[]
            ).map((x) => x.series),
          ),
        ];
        const mappedU = map.filter((e) => e.dataset === 'unemployment-across-industries.json');
        expect(mappedU.map((e) => e.series).sort()).toEqual(unemployment.sort());
        expect(new Set(mappedU.map((e) => e.detail_category))).toEqual(new Set(['Labor By Industry']));

        const symbols = new Set(
          readFileSync(`${vega}stocks.csv`, 'utf8')
            .trim()
            .split('\n')
            .slice(1)
            .map((l) => l.split(',')[0]),
        );
        const stocks = map.filter((e) => e.dataset === 'stocks.csv');
        expect(new Set(stocks.map((e) => e.series))).toEqual(symbols);
        for (const e of stocks)
          expect(findUnit(r, e)).toMatchObject({ frequency: 'M', finverse: false, eval_target: false });
      });
    },
  );
});

describe('macroPanelMap', () => {
  const rows = macroPanelMap();

  it('places FRED-MD names and RTDSM variables in registry units at their frequency, once each', () => {
    expect(new Set(rows.map((x) => `${x.dataset}/${x.mnemonic}/${x.frequency}`)).size).toBe(rows.length);
    for (const x of rows) expect(findUnit(r, x).frequency).toBe(x.frequency);
    const get = (dataset: string, mnemonic: string) =>
      rows.find((x) => x.dataset === dataset && x.mnemonic === mnemonic);
    expect(get('fredmd', 'RETAILx')?.detail_category).toBe('Spending');
    expect(get('fredmd', 'CLAIMSx')?.detail_category).toBe('Labor');
    expect(get('rtdsm', 'ROUTPUT')).toMatchObject({ detail_category: 'Gdp', frequency: 'Q' });
    expect(get('rtdsm', 'RUC')).toMatchObject({ detail_category: 'Labor', frequency: 'M', unit: 'Percent' });
  });

  it('does not repeat FRED ids the FRED catalog already places', () => {
    const catalog = new Set(fredCatalog().map((x) => x.series_id));
    expect(rows.filter((x) => x.dataset !== 'rtdsm' && catalog.has(x.mnemonic))).toEqual([]);
  });
});
