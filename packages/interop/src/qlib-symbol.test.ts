import { describe, expect, it } from 'vitest';
import { chooseQlibSeries } from './choose-qlib-series.ts';
import { qlibSymbol } from './qlib-symbol.ts';

describe('qlibSymbol', () => {
  it("lower-cases and prefixes Windows device names as Qlib's code_to_fname does", () => {
    expect(qlibSymbol('SYNA')).toBe('syna');
    for (const name of ['CON', 'prn', 'Aux', 'NUL', 'COM0', 'COM9', 'LPT1', 'lpt9']) {
      expect(qlibSymbol(name)).toBe(`_qlib_${name.toLowerCase()}`);
    }
    expect(qlibSymbol('CONX')).toBe('conx');
    expect(qlibSymbol('COM10')).toBe('com10');
  });
});

describe('chooseQlibSeries', () => {
  it('takes daily price fields and EDGAR fundamentals, skips the rest', () => {
    const chosen = chooseQlibSeries([
      { series_id: 'syn:px:SYNA:close', frequency: 'BD', source: 'synthetic' },
      { series_id: 'syn:px:CON:open', frequency: 'BD', source: 'synthetic' },
      { series_id: 'syn:px:SYNA:tr', frequency: 'BD', source: 'synthetic' },
      { series_id: 'vega:stocks:AAPL', frequency: 'M', source: 'embedded' },
      { series_id: 'syn:edgar:9990000001:net-income:Q', frequency: 'Q', source: 'edgar' },
      { series_id: 'syn:edgar:9990000001:net-income:A', frequency: 'A', source: 'edgar' },
    ]);
    expect(chosen.features).toEqual([
      { series_id: 'syn:px:SYNA:close', symbol: 'syna', code: 'SYNA', field: 'close' },
      { series_id: 'syn:px:CON:open', symbol: '_qlib_con', code: 'CON', field: 'open' },
    ]);
    expect(chosen.pit.map((p) => [p.symbol, p.field, p.quarterly])).toEqual([
      ['9990000001', 'net_income', true],
      ['9990000001', 'net_income', false],
    ]);
  });

  it('refuses two series of one symbol and field', () => {
    expect(() =>
      chooseQlibSeries([
        { series_id: 'a:SYNA:close', frequency: 'BD', source: null },
        { series_id: 'b:syna:close', frequency: 'D', source: null },
      ]),
    ).toThrow(/QLIB|both map to Qlib's features\/syna\/close/);
  });
});
