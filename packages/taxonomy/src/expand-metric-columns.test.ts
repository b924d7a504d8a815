import type { Frequency } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { expandMetricColumns, expandUnitTasks, parseUnitKey, unitTasks } from './expand-metric-columns.ts';
import { UnknownUnitError } from './find-unit.ts';
import { horizonSteps } from './horizon-steps.ts';
import { defaultRegistry } from './load-registry.ts';
import { rawRegistryRows as rawRows, rawUnitRows } from './raw-registry-rows.ts';

/** The expansion recomputed straight from the files: assignment rows × variant combinations. */
function recompute(finverseOnly: boolean): Set<string> {
  const finverseUnits = new Set(
    rawUnitRows()
      .filter((u) => u.finverse)
      .map((u) => [u.scope, u.category, u.detail_category, u.frequency].join('|')),
  );
  const variants = new Map(
    rawRows('variants.tsv').map(([id, combos]) => [
      id,
      combos === 'N/A'
        ? [['null', 'null']]
        : [...combos.matchAll(/\((\w+),(\w+)\)/g)].map((m) => [m[1], m[2]]),
    ]),
  );
  const out = new Set<string>();
  for (const r of rawRows('assignments.tsv')) {
    if (finverseOnly && !finverseUnits.has(r.slice(0, 4).join('|'))) continue;
    for (const metric of r[5].split(',')) {
      for (const [p, h] of variants.get(r[6]) ?? []) out.add(`${r[4]}|${metric}|${p}|${h}`);
    }
  }
  return out;
}

describe('expandMetricColumns', () => {
  const cols = expandMetricColumns(defaultRegistry(), { finverseOnly: true });

  it("gives one column per FinVerse assignment × variant pair, per family as the tables' rows give", () => {
    // SPEC §6's published sizes (78 columns, HR 11, …) are checked against ../shared/spec in
    // shared-spec.test.ts; here the expected counts come from the registry's FinVerse rows themselves.
    const perMetric = (keys: Iterable<string>) => {
      const out: Record<string, number> = {};
      for (const k of keys) {
        const metric = k.split('|')[1];
        out[metric] = (out[metric] ?? 0) + 1;
      }
      return out;
    };
    const want = recompute(true);
    expect(cols).toHaveLength(want.size);
    expect(perMetric(cols.map((c) => `${c.aspect}|${c.metric}|${c.p}|${c.h}`))).toEqual(perMetric(want));
    expect(Object.keys(perMetric(want)).sort()).toEqual(
      [
        'HR',
        'MASE_rel',
        'MASE_abs',
        'DHR',
        'D2HR',
        'IC',
        'MASE_ori',
        'return',
        'vol',
        'Sharpe',
        'MDD',
      ].sort(),
    );
  });

  it('equals the expansion recomputed from the registry files', () => {
    const got = new Set(cols.map((c) => `${c.aspect}|${c.metric}|${c.p}|${c.h}`));
    expect(got).toEqual(recompute(true));
    const all = expandMetricColumns(defaultRegistry());
    expect(new Set(all.map((c) => `${c.aspect}|${c.metric}|${c.p}|${c.h}`))).toEqual(recompute(false));
  });

  it('gives MASE_ori null p and h, and every other column two horizons', () => {
    for (const c of cols) {
      if (c.metric === 'MASE_ori') expect([c.p, c.h]).toEqual([null, null]);
      else expect(c.p !== null && c.h !== null).toBe(true);
    }
  });
});

describe('unitTasks', () => {
  const r = defaultRegistry();

  it("checks every evaluated unit's tasks against its assignment rows", () => {
    const variants = new Map(r.variants.map((v) => [v.id, v.combinations.length]));
    let evaluated = 0;
    for (const u of r.units) {
      const tasks = unitTasks(r, u.key);
      if (!u.eval_target) {
        expect(tasks).toEqual([]);
        continue;
      }
      evaluated++;
      const rows = r.assignments.filter((a) => a.unit_key === u.key);
      const expected = rows.reduce(
        (n, a) => n + a.metrics.length * Math.max(1, variants.get(a.variant) ?? 0),
        0,
      );
      expect(tasks, u.key).toHaveLength(expected);
      expect(
        tasks.filter((t) => t.metric === 'MASE_ori'),
        u.key,
      ).toHaveLength(1);
      for (const t of tasks) {
        expect(t.p_steps).toBe(t.p === null ? null : horizonSteps(u.frequency, t.p));
        expect(t.h_steps).toBe(t.h === null ? null : horizonSteps(u.frequency, t.h));
      }
    }
    // Every evaluated unit, FinVerse or extension (extensions may be scored too).
    expect(evaluated).toBe(rawUnitRows().filter((u) => u.eval_target).length);
  });

  it('scores a business-daily FX pair on D5 with BD steps', () => {
    const tasks = unitTasks(r, {
      scope: 'Inter-country',
      category: 'Foreign Exchange',
      detail_category: 'FX Pair',
      frequency: 'BD',
    });
    const ic = tasks.filter((t) => t.metric === 'IC');
    expect(ic.map((t) => [t.aspect, t.p, t.h, t.p_steps])).toEqual([
      ['Cross-sectional', '1w', '1w', 5],
      ['Cross-sectional', '1m', '1m', 22],
      ['Cross-sectional', '1q', '1q', 65],
      ['Cross-sectional', '1h', '1h', 130],
      ['Cross-sectional', '1y', '1y', 260],
    ]);
  });

  it('throws UnknownUnitError for an unknown unit key', () => {
    expect(() => unitTasks(r, 'Country / Fixed Income / Treasury Yield / M')).toThrow(UnknownUnitError);
  });

  it('expandUnitTasks flattens every evaluated unit', () => {
    const rows = expandUnitTasks(r, { finverseOnly: true });
    expect(new Set(rows.map((t) => t.unit_key)).size).toBe(
      rawUnitRows().filter((u) => u.finverse && u.eval_target).length,
    );
    const all = expandUnitTasks(r);
    expect(new Set(all.map((t) => t.unit_key)).size).toBe(rawUnitRows().filter((u) => u.eval_target).length);
    expect(parseUnitKey(rows[0].unit_key).frequency as Frequency).toBe(rows[0].frequency);
  });
});
