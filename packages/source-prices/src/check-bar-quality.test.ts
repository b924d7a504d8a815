import { describe, expect, it } from 'vitest';
import { checkBarQuality } from './check-bar-quality.ts';
import type { PriceBar } from './price-types.ts';

const b = (date: string, close: number | null, extra: Partial<PriceBar> = {}): PriceBar => ({
  date,
  open: close,
  high: close,
  low: close,
  close,
  volume: 1000,
  row: 0,
  ...extra,
});

describe('checkBarQuality', () => {
  const bars: PriceBar[] = [
    b('2021-07-14', 10, { row: 2 }),
    b('2021-07-15', 10, { row: 3 }),
    b('2021-07-17', 10, { row: 4 }), // Saturday
    b('2021-07-16', 11, { row: 5 }), // out of order
    b('2021-07-16', 12, { row: 6 }), // duplicate
    b('2021-07-19', -1, { row: 7 }),
    b('2021-07-20', 11, { row: 8, high: 10, low: 12 }),
    b('2021-07-21', 11, { row: 9, open: 11.5, high: 11.2, low: 10.9 }),
  ];

  it('drops or flags bad bars by policy, never silently', () => {
    const { bars: kept, report } = checkBarQuality(bars, { where: 't.csv' });
    expect(kept.map((x) => x.date)).toEqual(['2021-07-14', '2021-07-15', '2021-07-16', '2021-07-21']);
    expect(kept[2].close).toBe(11);
    expect(report.issue_counts).toEqual({
      NON_TRADING_DAY: 1,
      DUPLICATE_DATE: 1,
      NON_POSITIVE_PRICE: 4,
      HIGH_LT_LOW: 1,
      OHLC_OUTSIDE_RANGE: 1,
    });
    expect(report.out_of_order).toBe(true);
    expect(report.issues.find((i) => i.code === 'NON_TRADING_DAY')?.message).toBe(
      't.csv row 4 (2021-07-17): 2021-07-17 is not a trading day (Saturday)',
    );
    expect(report.missing_days).toBe(2); // 07-19 and 07-20 were dropped
  });

  it('throws under an error policy, naming the row and the way out', () => {
    expect(() => checkBarQuality(bars, { policy: 'error', where: 't.csv' })).toThrow(
      /t\.csv row 6 \(2021-07-16\): second bar for 2021-07-16; the first is kept\. Fix the raw file/,
    );
    expect(() => checkBarQuality(bars.slice(0, 3), { policy: { NON_TRADING_DAY: 'error' } })).toThrow(
      /row 4 \(2021-07-17\): 2021-07-17 is not a trading day \(Saturday\)/,
    );
    expect(() => checkBarQuality(bars, { policy: { HIGH_LT_LOW: 'error' } })).toThrow(/high 10 < low 12/);
  });

  it('reports gaps, stale runs, extreme returns without a split and volume spikes', () => {
    const days = [
      '2021-06-01',
      '2021-06-02',
      '2021-06-03',
      '2021-06-04',
      '2021-06-07',
      '2021-06-08',
      '2021-06-09',
    ];
    const series = days.map((d) => b(d, 10));
    series.push(b('2021-06-14', 16), b('2021-06-15', 4, { volume: 50_000 }), b('2021-06-16', 4.1));
    const { report } = checkBarQuality(series, { splits: [{ exDate: '2021-06-15', ratio: 4 }] });
    expect(report.gaps).toEqual([{ from: '2021-06-10', to: '2021-06-11', days: 2 }]);
    expect(report.stale_runs).toEqual([{ from: '2021-06-01', to: '2021-06-09', bars: 7, close: 10 }]);
    expect(report.extreme_returns.map((e) => e.date)).toEqual(['2021-06-14']); // 06-15 is the split
    expect(report.volume_spikes.map((v) => v.date)).toEqual(['2021-06-15']);
    const crypto = checkBarQuality([b('2021-07-17', 1), b('2021-07-18', 1)], { calendar: 'all_days' });
    expect(crypto.bars.length).toBe(2);
  });
});
