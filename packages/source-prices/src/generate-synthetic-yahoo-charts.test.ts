import { isUsTradingDay, localDateOfMicros, microsToIso, usSessionClose } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import {
  counterUniform,
  DEFAULT_SYNTHETIC_CHARTS,
  generateSyntheticYahooCharts,
  ingestSyntheticPrices,
} from './generate-synthetic-yahoo-charts.ts';
import { parseYahooChart } from './parse-yahoo-chart.ts';

describe('generateSyntheticYahooCharts', () => {
  it('is a pure function of the seed, and one instrument does not depend on the others', () => {
    const range = { from: '2021-01-04', to: '2021-12-31' };
    const a = generateSyntheticYahooCharts({ seed: 42, ...range });
    const b = generateSyntheticYahooCharts({ seed: 42, ...range });
    expect(a.map((c) => c.text)).toEqual(b.map((c) => c.text));
    expect(generateSyntheticYahooCharts({ seed: 43, ...range })[0].text).not.toBe(a[0].text);
    const alone = generateSyntheticYahooCharts({
      seed: 42,
      ...range,
      instruments: [DEFAULT_SYNTHETIC_CHARTS[1]],
    });
    expect(alone[0].text).toBe(a[1].text);
    const u = [0, 1, 2, 3].map((step) => counterUniform(42, 7, step, 0));
    expect(new Set(u).size).toBe(4);
    expect(u.every((x) => x > 0 && x < 1)).toBe(true);
  });

  it('writes valid Yahoo chart JSON: split-adjusted bars with split and dividend events', () => {
    const [syna] = generateSyntheticYahooCharts({ seed: 1 });
    const p = parseYahooChart(syna.text, syna.fileName);
    expect(p.bars[0].date).toBe('2016-01-04');
    expect(p.splits).toEqual([
      { exDate: '2018-06-04', ratio: 2 },
      { exDate: '2021-08-31', ratio: 4 },
    ]);
    expect(p.dividends.length).toBeGreaterThan(30);
    // Split-adjusted: no 4:1 jump in the vendor closes at the split.
    const k = p.bars.findIndex((x) => x.date === '2021-08-31');
    expect(p.bars[k].close! / p.bars[k - 1].close!).toBeGreaterThan(0.8);
    expect(p.bars[k].close! / p.bars[k - 1].close!).toBeLessThan(1.25);
  });
});

describe('ingestSyntheticPrices', () => {
  it('recovers as-traded prices and a total return that matches the generator adjclose', () => {
    const sink = new CollectingSink();
    const results = ingestSyntheticPrices(sink, { seed: 5, map: { totalReturn: true } });
    expect(results.map((r) => r.symbol)).toEqual(['SYNA', 'SYNB', 'SYNETF']);
    expect(sink.series.every((s) => s.series_id.startsWith('syn:px:') && s.is_synthetic)).toBe(true);
    expect(sink.warnings.filter((w) => w.code !== 'PRICES_BAR_OHLC_OUTSIDE_RANGE')).toEqual([]);
    const closeOn = (id: string, date: string) =>
      sink.observations.find((o) => o.series_id === id && microsToIso(o.timestamp).startsWith(date))!.value;
    // 2021-08-31 4:1 split of SYNA: the as-traded close drops about 4x.
    const ratio = closeOn('syn:px:SYNA:close', '2021-08-30') / closeOn('syn:px:SYNA:close', '2021-08-31');
    expect(ratio).toBeGreaterThan(3.2);
    expect(ratio).toBeLessThan(5);
    const trA = closeOn('syn:px:SYNA:tr', '2021-08-31') / closeOn('syn:px:SYNA:tr', '2021-08-30');
    expect(Math.abs(trA - 1)).toBeLessThan(0.2);
    const actions = sink.corporateActions.filter((a) => a.entity_id === 'ticker:SYNA');
    expect(actions.filter((a) => a.kind === 'split').map((a) => a.ex_date)).toEqual([
      '2018-06-04',
      '2021-08-31',
    ]);
    expect(actions.filter((a) => a.kind === 'dividend').length).toBeGreaterThan(30);
    // Total return vs the generator's dividend-adjusted close: same daily returns up to cent rounding.
    const [syna] = generateSyntheticYahooCharts({ seed: 5 });
    const adj = JSON.parse(syna.text).chart.result[0].indicators.adjclose[0].adjclose as number[];
    const tr = sink.observations.filter((o) => o.series_id === 'syn:px:SYNA:tr').map((o) => o.value);
    let worst = 0;
    for (let i = 1; i < tr.length; i++)
      worst = Math.max(worst, Math.abs(tr[i] / tr[i - 1] - adj[i] / adj[i - 1]));
    expect(worst).toBeLessThan(1e-3);
  });
});

describe('the synthetic Yahoo charts of the default build', () => {
  it('trade on the US exchange calendar: no bar on an NYSE holiday, early closes at 13:00 New York', () => {
    const sink = new CollectingSink();
    ingestSyntheticPrices(sink, { seed: 20260101 });
    const days = new Set<string>();
    const off: string[] = [];
    for (const t of new Set(sink.observations.map((o) => o.timestamp))) {
      const date = localDateOfMicros(t, 'America/New_York');
      days.add(date);
      if (!isUsTradingDay(date) || t !== usSessionClose(date).micros) off.push(microsToIso(t));
    }
    expect(off).toEqual([]);
    expect(days.size).toBeGreaterThan(2000);
    for (const holiday of ['2016-12-26', '2020-04-10', '2024-11-28', '2024-12-25'])
      expect(days.has(holiday), holiday).toBe(false);
    const nyTime = (us: number) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'America/New_York',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(us / 1000));
    const bar = (date: string) =>
      sink.observations.find(
        (o) =>
          o.series_id === 'syn:px:SYNA:close' && localDateOfMicros(o.timestamp, 'America/New_York') === date,
      )!;
    expect(nyTime(bar('2024-11-29').timestamp)).toBe('13:00');
    expect(nyTime(bar('2024-12-24').timestamp)).toBe('13:00');
    expect(nyTime(bar('2024-12-23').timestamp)).toBe('16:00');
  });
});
