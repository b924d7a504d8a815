import { describe, expect, it } from 'vitest';
import { classifyPriceSeries } from './classify-price-series.ts';
import { findUnit, UnknownUnitError } from './find-unit.ts';
import { defaultRegistry } from './load-registry.ts';
import { PRICE_FIELDS, PRICE_KINDS } from './registry-types.ts';

describe('classifyPriceSeries', () => {
  const r = defaultRegistry();

  it('maps equity and ETF fields to the FinVerse OHLCV units at BD', () => {
    expect(classifyPriceSeries('equity', 'close')).toEqual({
      scope: 'Individual',
      category: 'Equity',
      detail_category: 'Equity OHLCV Close',
      frequency: 'BD',
    });
    expect(classifyPriceSeries('etf', 'volume').detail_category).toBe('ETF OHLCV Volume');
  });

  it('maps the non-close fields of close-only kinds to extension units that are not evaluated', () => {
    const close = classifyPriceSeries('us_equity_index', 'close');
    expect(findUnit(r, close)).toMatchObject({
      detail_category: 'US Equity Index',
      finverse: true,
      eval_target: true,
    });
    for (const field of ['open', 'high', 'low', 'volume'] as const) {
      const c = classifyPriceSeries('us_equity_index', field);
      expect(c.detail_category).toBe(`US Equity Index OHLCV ${field[0].toUpperCase()}${field.slice(1)}`);
      expect(findUnit(r, c)).toMatchObject({ finverse: false, eval_target: false });
    }
    expect(classifyPriceSeries('commodity_etf_single', 'close').detail_category).toBe('Commodity ETF Single');
    expect(classifyPriceSeries('regional_index', 'high').detail_category).toBe('Regional Index OHLCV High');
  });

  it('defaults crypto to daily bars and the evaluated top-100 close', () => {
    expect(classifyPriceSeries('crypto', 'close')).toMatchObject({
      detail_category: 'Crypto Pair Close (Top 100)',
      frequency: 'D',
    });
    expect(classifyPriceSeries('crypto_other', 'close').detail_category).toBe('Crypto Pair Close (Other)');
    expect(classifyPriceSeries('crypto', 'open').detail_category).toBe('Crypto Pair Open');
  });

  it('honours a frequency the registry has and rejects one it lacks', () => {
    expect(classifyPriceSeries('equity', 'close', 'M').frequency).toBe('M');
    expect(() => classifyPriceSeries('equity', 'open', 'M')).toThrow(UnknownUnitError);
  });

  it('covers every kind × field', () => {
    for (const kind of PRICE_KINDS)
      for (const field of PRICE_FIELDS) expect(() => classifyPriceSeries(kind, field)).not.toThrow();
    expect(() => classifyPriceSeries('bond' as never, 'close')).toThrow(/no price-kinds.tsv rule/);
  });
});
