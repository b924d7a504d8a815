import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { parseYahooChart } from './parse-yahoo-chart.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
const has = existsSync(dir);

function chart(result: unknown, error: unknown = null): string {
  return JSON.stringify({ chart: { result: result === null ? null : [result], error } });
}

const meta = {
  symbol: 'ABC',
  currency: 'USD',
  exchangeTimezoneName: 'America/New_York',
  instrumentType: 'EQUITY',
};

describe('parseYahooChart (hand-made payloads)', () => {
  it('derives trading dates in the exchange zone and reads events', () => {
    const p = parseYahooChart(
      chart({
        meta,
        // 2021-07-19 and 2021-07-20 09:30 New York
        timestamp: [1626701400, 1626787800],
        events: {
          splits: { '1626787800': { date: 1626787800, numerator: 4, denominator: 1, splitRatio: '4:1' } },
          dividends: { '1626701400': { amount: 0.16, date: 1626701400 } },
        },
        indicators: {
          quote: [
            { open: [10, 2.6], high: [11, 2.7], low: [9, null], close: [10.5, 2.65], volume: [100, 400] },
          ],
        },
      }),
    );
    expect(p.bars.map((b) => b.date)).toEqual(['2021-07-19', '2021-07-20']);
    expect(p.bars[1].low).toBeNull();
    expect(p.splits).toEqual([{ exDate: '2021-07-20', ratio: 4 }]);
    expect(p.dividends).toEqual([{ exDate: '2021-07-19', amount: 0.16 }]);
    expect(p.splitsListed).toBe(true);
    expect(p.adjustment).toBe('split');
  });

  it('refuses HTML, Yahoo errors, wrong shapes and length mismatches with clear messages', () => {
    expect(() => parseYahooChart('<!doctype html><html>consent</html>', 'f.json')).toThrow(/HTML page/);
    expect(() => parseYahooChart(chart(null, { code: 'Not Found', description: 'No data found' }))).toThrow(
      /Not Found: No data found/,
    );
    expect(() => parseYahooChart(JSON.stringify({ chart: { result: [{ meta: {} }] } }), 'x.json')).toThrow(
      /x\.json: not a valid Yahoo v8 chart response: chart\.result\.0\./,
    );
    expect(() =>
      parseYahooChart(chart({ meta, timestamp: [1, 2], indicators: { quote: [{ close: [1] }] } })),
    ).toThrow(/close has 1 values but there are 2 timestamps/);
    expect(() => parseYahooChart('{"chart":', 'bad.json')).toThrow(/bad\.json: not valid JSON/);
    // A zone the runtime does not know is refused at the edge (it would fail every local date later).
    const badZone = () =>
      parseYahooChart(
        chart({
          meta: { ...meta, exchangeTimezoneName: 'Mars/Olympus' },
          timestamp: [1626701400],
          indicators: { quote: [{ close: [1] }] },
        }),
        'z.json',
      );
    expect(badZone).toThrow(InputError);
    expect(badZone).toThrow(
      /z\.json: .*meta\.exchangeTimezoneName "Mars\/Olympus" is not an IANA time zone; expected one such as America\/New_York/,
    );
  });
});

describe.skipIf(!has)('parseYahooChart on real Yahoo responses (needs ../shared/fixtures/real)', () => {
  it('reads the AAPL 2020 file: 49 bars, the 4:1 split and the 0.205 dividend', () => {
    const p = parseYahooChart(
      readFileSync(`${dir}yahoo_chart_AAPL_2020-08-31_2020-11-06_split4to1_dividend.json`, 'utf8'),
    );
    expect(p.symbol).toBe('AAPL');
    expect(p.bars.length).toBe(49);
    expect(p.bars[0].date).toBe('2020-08-31');
    expect(p.bars.at(-1)?.date).toBe('2020-11-06');
    expect(p.splits).toEqual([{ exDate: '2020-08-31', ratio: 4 }]);
    expect(p.dividends).toEqual([{ exDate: '2020-11-06', amount: 0.205 }]);
    expect(p.timeZone).toBe('America/New_York');
  });

  it('reads the whole 3,303-bar TSLA history (events null: no split list)', () => {
    const p = parseYahooChart(
      readFileSync(`${dir}yahoo_chart_TSLA_2010-06-29_2023-08-11_daily.json`, 'utf8'),
    );
    expect(p.bars.length).toBe(3303);
    expect(p.bars[0].date).toBe('2010-06-29');
    expect(p.bars[0].close).toBeCloseTo(1.592667, 5);
    expect(p.bars.at(-1)?.date).toBe('2023-08-11');
    expect(p.splitsListed).toBe(false);
  });
});
