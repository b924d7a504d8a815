import { editDistance, nearestNames } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { checkSeriesUnits, findUnit, lookupUnit, UnknownUnitError } from './find-unit.ts';
import { defaultRegistry } from './load-registry.ts';

function caught(fn: () => unknown): UnknownUnitError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UnknownUnitError) return e;
    throw e;
  }
  throw new Error('expected UnknownUnitError');
}

describe('nearestNames', () => {
  it('ranks by case-insensitive edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('GDP', 'Gdp')).toBe(0);
    expect(nearestNames('Inflaton', ['Inflation Expectation', 'Gdp', 'Inflation'], 2)).toEqual([
      'Inflation',
      'Gdp',
    ]);
  });
});

describe('findUnit', () => {
  const r = defaultRegistry();

  it('finds a unit and returns its flags', () => {
    const u = findUnit(r, {
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: 'Gdp',
      frequency: 'Q',
    });
    expect(u).toMatchObject({
      eval_target: true,
      finverse: true,
      key: 'Country / Macro Indicators / Gdp / Q',
    });
  });

  it('names the nearest detail categories for a misspelt one', () => {
    const e = caught(() =>
      findUnit(
        r,
        {
          scope: 'Country',
          category: 'Macro Indicators',
          detail_category: 'Industrial Prod By Industry',
          frequency: 'M',
        },
        'series syn:ip',
      ),
    );
    expect(e.code).toBe('UNKNOWN_UNIT');
    expect(e.nearest[0]).toBe('Industrial Production By Industry');
    expect(e.message).toContain('series syn:ip: unit ');
    expect(e.message).toContain("did you mean 'Industrial Production By Industry'");
    expect(e.valid).toContain('Labor By Industry');
  });

  it('names the valid frequencies for a known detail category', () => {
    const e = caught(() =>
      findUnit(r, {
        scope: 'Country',
        category: 'Macro Indicators',
        detail_category: 'Labor',
        frequency: 'Q',
      }),
    );
    expect(e.valid).toEqual(['W', 'M']);
    expect(e.message).toContain("has no unit at frequency 'Q'; its units are at W, M");
  });

  it('names the valid scopes and categories, and where a detail category lives', () => {
    expect(
      caught(() => findUnit(r, { scope: 'Countries', category: 'x', detail_category: 'y', frequency: 'M' }))
        .nearest[0],
    ).toBe('Country');
    expect(
      caught(() =>
        findUnit(r, { scope: 'Country', category: 'Fixed Incom', detail_category: 'y', frequency: 'M' }),
      ).nearest[0],
    ).toBe('Fixed Income');
    const e = caught(() =>
      findUnit(r, {
        scope: 'Country',
        category: 'Fixed Income',
        detail_category: 'FX Pair',
        frequency: 'BD',
      }),
    );
    expect(e.message).toContain("'FX Pair' exists under Inter-country / Foreign Exchange");
  });

  it('lookupUnit returns undefined instead of throwing', () => {
    expect(
      lookupUnit(r, {
        scope: 'Country',
        category: 'Macro Indicators',
        detail_category: 'Labor',
        frequency: 'Q',
      }),
    ).toBeUndefined();
  });
});

describe('checkSeriesUnits', () => {
  const r = defaultRegistry();
  const ok = {
    scope: 'Country',
    category: 'Macro Indicators',
    detail_category: 'Gdp',
    frequency: 'Q',
  } as const;

  it('returns each series’ unit', () => {
    const units = checkSeriesUnits(r, [{ series_id: 'fred:GDP', ...ok }]);
    expect(units.get('fred:GDP')?.eval_target).toBe(true);
  });

  it('rejects the batch naming the unknown unit, its series and the nearest names', () => {
    const bad = {
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: 'GDP Growth',
      frequency: 'Q',
    } as const;
    const e = caught(() =>
      checkSeriesUnits(r, [
        { series_id: 'fred:GDP', ...ok },
        { series_id: 'x:1', ...bad },
        { series_id: 'x:2', ...bad },
      ]),
    );
    expect(e.message).toContain(
      '2 series (x:1, x:2): unit Country / Macro Indicators / GDP Growth / Q is not in the registry',
    );
    expect(e.nearest).toContain('Gdp');
  });
});
