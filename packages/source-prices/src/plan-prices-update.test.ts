import { rawFile as file, updateContext } from '@asof/test-kit';
import { describe, expect, it } from 'vitest';
import { MEMBERSHIP_INPUT } from './parse-membership-csv.ts';
import { planPricesUpdate } from './plan-prices-update.ts';
import { PricesConfig } from './prices-config.ts';

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
      expect(planPricesUpdate(PricesConfig.parse(p), updateContext(SAME, OLD))).toEqual({
        action: 'rerun',
        reason: 'live or synthetic',
      });
  });

  it("reuses a folder and membership files that are OLD's", () => {
    const plan = planPricesUpdate(RAW, updateContext(SAME, OLD, { hashes: { 'sp.csv': 'm' } }));
    expect(plan.action).toBe('reuse');
    expect(plan.files?.size).toBe(2);
  });

  it('decides per instrument when files changed, and reads everything again when a membership file did', () => {
    const now = [file('AAPL.json', 'a2'), file('daily/spy.csv', 'b')];
    expect(planPricesUpdate(RAW, updateContext(now, OLD, { hashes: { 'sp.csv': 'm' } }))).toMatchObject({
      action: 'entities',
      change: { added: [], changed: ['AAPL.json'], removed: [] },
    });
    expect(planPricesUpdate(RAW, updateContext(now, OLD))).toMatchObject({
      action: 'rerun',
      reason: 'a membership file changed',
      change: { changed: ['AAPL.json'], removed: ['sp.csv'] },
    });
  });
});
