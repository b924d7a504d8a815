import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FREQUENCY_NAMES } from '@asof/schema';
import { describe, expect, it } from 'vitest';
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
});
