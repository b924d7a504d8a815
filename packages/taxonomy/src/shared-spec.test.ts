import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FREQUENCY_NAMES } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { expandMetricColumns } from './expand-metric-columns.ts';
import { defaultRegistry } from './load-registry.ts';

const specDir = fileURLToPath(new URL('../../../../shared/spec/', import.meta.url));
const has = existsSync(specDir);

function spec(file: string): string[][] {
  return readFileSync(specDir + file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
}

describe.skipIf(!has)('registry equals the FinVerse tables (needs ../shared/spec)', () => {
  const r = defaultRegistry();

  it('has the same 119 units with the same eval flags', () => {
    const want = spec('finverse-detail-coverage.tsv').map((c) => [c[0], c[1], c[2], c[3], c[4]].join('|'));
    const got = r.units
      .filter((u) => u.finverse)
      .map((u) =>
        [
          u.scope,
          u.category,
          u.detail_category,
          FREQUENCY_NAMES[u.frequency],
          u.eval_target ? 'yes' : 'no',
        ].join('|'),
      );
    expect(got).toEqual(want);
  });

  it('has the same metric assignments', () => {
    const want = spec('finverse-metric-assignment.tsv').map((c) => c.join('|'));
    const got = r.assignments
      .filter((a) => a.finverse)
      .map((a) =>
        [
          a.scope,
          a.category,
          a.detail_category,
          FREQUENCY_NAMES[a.frequency],
          a.aspect,
          a.metrics.join(','),
          a.variant,
        ].join('|'),
      );
    expect(got).toEqual(want);
  });

  it('has the same variants and horizons', () => {
    const variants = spec('finverse-variants.tsv').map(([id, combos]) => [id, combos]);
    expect(
      r.variants.map((v) => [
        v.id,
        v.combinations.length === 0 ? 'N/A' : v.combinations.map((c) => `(${c.p},${c.h})`).join(','),
      ]),
    ).toEqual(variants);
    const horizons = spec('finverse-horizons.tsv').map((c) => c.join('|'));
    expect(
      r.horizons.map((h) =>
        [FREQUENCY_NAMES[h.frequency], h.prediction_length, h.minimum_lookback].join('|'),
      ),
    ).toEqual(horizons);
  });

  it("gives SPEC §6's published sizes: 119 units (75 evaluated), 101 detail categories, 78 metric columns", () => {
    // The one place these numbers are written down: they are the paper's, so they hold for its tables and
    // for the registry's FinVerse part, whatever extensions (evaluated or not) units.tsv adds.
    const units = spec('finverse-detail-coverage.tsv');
    expect(new Set(units.map((c) => c[0])).size).toBe(3);
    expect(new Set(units.map((c) => `${c[0]}|${c[1]}`)).size).toBe(13);
    expect(new Set(units.map((c) => `${c[0]}|${c[1]}|${c[2]}`)).size).toBe(103);
    expect(new Set(units.map((c) => c[2])).size).toBe(101);
    expect(units).toHaveLength(119);
    expect(units.filter((c) => c[4] === 'yes')).toHaveLength(75);
    const perMetric: Record<string, number> = {};
    for (const c of expandMetricColumns(r, { finverseOnly: true }))
      perMetric[c.metric] = (perMetric[c.metric] ?? 0) + 1;
    expect(perMetric).toEqual({
      HR: 11,
      MASE_rel: 11,
      MASE_abs: 11,
      DHR: 8,
      D2HR: 8,
      IC: 8,
      MASE_ori: 1,
      return: 5,
      vol: 5,
      Sharpe: 5,
      MDD: 5,
    });
  });
});
