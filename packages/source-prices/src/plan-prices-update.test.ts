import type { SourceOldInput, SourceRawFile, SourceUpdateContext } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { MEMBERSHIP_INPUT } from './parse-membership-csv.ts';
import { planPricesUpdate } from './plan-prices-update.ts';
import { PricesConfig } from './prices-config.ts';

const file = (name: string, sha256: string): SourceRawFile => ({ name, sha256, bytes: 1, head: '' });

/** An update context over an in-memory folder and membership files: what the build would list and what OLD read. */
function context(
  now: SourceRawFile[],
  old: SourceOldInput[],
  membership: Record<string, string | null> = {},
): SourceUpdateContext {
  return {
    sectionChanged: false,
    oldInputs: old,
    listRawDir: (_dir, filter) => new Map(now.filter((f) => filter.keep(f.name)).map((f) => [f.name, f])),
    hashFile: (path) => membership[path] ?? null,
  };
}

const RAW = PricesConfig.parse({ raw_dir: 'prices', membership: ['sp.csv'] });
const OLD = [
  { source: 'prices:yahoo', key: 'AAPL.json', sha256: 'a' },
  { source: 'prices:lean', key: 'daily/spy.csv', sha256: 'b' },
  { source: MEMBERSHIP_INPUT, key: 'sp.csv', sha256: 'm' },
];
const SAME = [file('AAPL.json', 'a'), file('daily/spy.csv', 'b')];

describe('planPricesUpdate', () => {
  it('reads live symbols and synthetic charts again', () => {
    for (const p of [{ raw_dir: 'prices', symbols: ['AAPL'] }, { synthetic: { seed: 1 } }])
      expect(planPricesUpdate(PricesConfig.parse(p), context(SAME, OLD))).toEqual({
        action: 'rerun',
        reason: 'live or synthetic',
      });
  });

  it("reuses a folder and membership files that are OLD's", () => {
    const plan = planPricesUpdate(RAW, context(SAME, OLD, { 'sp.csv': 'm' }));
    expect(plan.action).toBe('reuse');
    expect(plan.files?.size).toBe(2);
  });

  it('decides per instrument when files changed, and reads everything again when a membership file did', () => {
    const now = [file('AAPL.json', 'a2'), file('daily/spy.csv', 'b')];
    expect(planPricesUpdate(RAW, context(now, OLD, { 'sp.csv': 'm' }))).toMatchObject({
      action: 'entities',
      change: { added: [], changed: ['AAPL.json'], removed: [] },
    });
    expect(planPricesUpdate(RAW, context(now, OLD))).toMatchObject({
      action: 'rerun',
      reason: 'a membership file changed',
      change: { changed: ['AAPL.json'], removed: ['sp.csv'] },
    });
  });
});
