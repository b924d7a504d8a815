import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseYahooChart } from './parse-yahoo-chart.ts';
import { totalReturnIndex } from './total-return-index.ts';
import { mergeSplits, unadjustSplits } from './unadjust-splits.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
const has = existsSync(dir);

describe('totalReturnIndex', () => {
  it('reinvests dividends at the ex-date close and carries splits, using only actions up to each bar', () => {
    const bars = [
      { date: '2021-01-04', close: 100 },
      { date: '2021-01-05', close: 98 }, // ex-dividend 2
      { date: '2021-01-06', close: 25 }, // 4:1 split, flat
      { date: '2021-01-07', close: null },
      { date: '2021-01-08', close: 26 },
    ];
    const tr = totalReturnIndex(
      bars,
      [{ exDate: '2021-01-06', ratio: 4 }],
      [{ exDate: '2021-01-05', amount: 2 }],
    );
    expect(tr.map((p) => p.date)).toEqual(['2021-01-04', '2021-01-05', '2021-01-06', '2021-01-08']);
    expect(tr[1].value).toBeCloseTo(100, 12);
    expect(tr[2].value).toBeCloseTo((100 * (4 * 25)) / 98, 12);
    expect(tr[3].value).toBeCloseTo(tr[2].value * (26 / 25), 12);
    // A future action never changes earlier values.
    const withFuture = totalReturnIndex(
      bars,
      [{ exDate: '2030-01-02', ratio: 10 }],
      [{ exDate: '2021-01-05', amount: 2 }],
    );
    expect(withFuture[1].value).toBe(tr[1].value);
  });

  it('counts a dividend before a split in the same gap per share held on its ex-date', () => {
    const tr = totalReturnIndex(
      [
        { date: '2021-01-04', close: 100 },
        { date: '2021-01-08', close: 24 },
      ],
      [{ exDate: '2021-01-07', ratio: 4 }],
      [{ exDate: '2021-01-06', amount: 1 }],
    );
    expect(tr[1].value).toBeCloseTo((100 * (4 * 24 + 1)) / 100, 12);
  });
});

describe.skipIf(!has)('total return on real Yahoo data (needs ../shared/fixtures/real)', () => {
  it('is continuous across the NVDA 4:1 split and matches Yahoo adjclose returns', () => {
    const p = parseYahooChart(
      readFileSync(`${dir}yahoo_chart_NVDA_2021-02-01_2022-01-28_split4to1.json`, 'utf8'),
    );
    const splits = mergeSplits(p.splits, [{ exDate: '2024-06-10', ratio: 10 }]);
    const { bars, dividends } = unadjustSplits(p.bars, splits, '2025-02-22', p.dividends);
    const tr = totalReturnIndex(bars, splits, dividends);
    const i = tr.findIndex((x) => x.date === '2021-07-20');
    const r = tr[i].value / tr[i - 1].value - 1;
    expect(Math.abs(r)).toBeLessThan(0.05); // as-traded close falls 75% that day
    const adj = JSON.parse(
      readFileSync(`${dir}yahoo_chart_NVDA_2021-02-01_2022-01-28_split4to1.json`, 'utf8'),
    ).chart.result[0].indicators.adjclose[0].adjclose as number[];
    const k = p.bars.findIndex((b) => b.date === '2021-07-20');
    expect(r).toBeCloseTo(adj[k] / adj[k - 1] - 1, 6);
  });

  it('matches Yahoo adjclose day by day for MSFT across its four dividends', () => {
    const text = readFileSync(`${dir}yahoo_chart_MSFT_2021-02-01_2022-01-28_dividends.json`, 'utf8');
    const p = parseYahooChart(text);
    expect(p.dividends.length).toBe(4);
    const tr = totalReturnIndex(p.bars, [], p.dividends);
    const adj = JSON.parse(text).chart.result[0].indicators.adjclose[0].adjclose as number[];
    let worst = 0;
    for (let k = 1; k < tr.length; k++) {
      worst = Math.max(worst, Math.abs(tr[k].value / tr[k - 1].value - adj[k] / adj[k - 1]));
    }
    expect(worst).toBeLessThan(1e-4);
  });
});
