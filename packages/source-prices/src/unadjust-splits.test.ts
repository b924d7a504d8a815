import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseYahooChart } from './parse-yahoo-chart.ts';
import type { PriceBar } from './price-types.ts';
import { mergeSplits, splitFactorAfter, unadjustSplits } from './unadjust-splits.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
const has = existsSync(dir);

const bar = (date: string, close: number, volume: number): PriceBar => ({
  date,
  open: close,
  high: close,
  low: close,
  close,
  volume,
  row: 0,
});

describe('unadjustSplits', () => {
  const splits = [
    { exDate: '2021-07-20', ratio: 4 },
    { exDate: '2024-06-10', ratio: 10 },
  ];

  it('multiplies prices and divides volume by the splits after each bar up to the download', () => {
    const f = splitFactorAfter(splits, '2025-02-21');
    expect(f('2021-07-19')).toBe(40);
    expect(f('2021-07-20')).toBe(10);
    expect(f('2024-06-10')).toBe(1);
    // A split after the download is not in the vendor's numbers yet.
    expect(splitFactorAfter(splits, '2024-01-01')('2021-07-19')).toBe(4);
    const { bars, dividends } = unadjustSplits(
      [bar('2021-07-19', 18.78, 4_000), bar('2021-07-20', 18.61, 4_000)],
      splits,
      '2025-02-21',
      [{ exDate: '2021-06-09', amount: 0.004 }],
    );
    expect(bars[0].close).toBeCloseTo(751.2, 9);
    expect(bars[0].volume).toBe(100);
    expect(bars[1].close).toBeCloseTo(186.1, 9);
    expect(dividends[0].amount).toBeCloseTo(0.16, 12);
  });

  it('merges split lists and refuses conflicting ratios', () => {
    expect(mergeSplits([{ exDate: '2024-06-10', ratio: 10 }], splits)).toEqual(splits);
    expect(() => mergeSplits(splits, [{ exDate: '2021-07-20', ratio: 2 }])).toThrow(
      /disagree on 2021-07-20: ratio 4 vs 2/,
    );
  });
});

describe.skipIf(!has)('NVDA around the 2021-07-20 4:1 split (needs ../shared/fixtures/real)', () => {
  it('gives an as-traded 2021-07-19 close about 4x the 2021-07-20 close when the 2024 10:1 split is known', () => {
    const p = parseYahooChart(
      readFileSync(`${dir}yahoo_chart_NVDA_2021-02-01_2022-01-28_split4to1.json`, 'utf8'),
    );
    const splits = mergeSplits(p.splits, [{ exDate: '2024-06-10', ratio: 10 }]);
    const { bars } = unadjustSplits(p.bars, splits, '2025-02-22');
    const c19 = bars.find((b) => b.date === '2021-07-19')!.close!;
    const c20 = bars.find((b) => b.date === '2021-07-20')!.close!;
    expect(c19 / c20).toBeGreaterThan(3.8);
    expect(c19 / c20).toBeLessThan(4.2);
    // Actual NVDA closes: 751.19 before the split, 186.12 on the ex-date.
    expect(c19).toBeCloseTo(751.19, 1);
    expect(c20).toBeCloseTo(186.12, 1);
  });
});
