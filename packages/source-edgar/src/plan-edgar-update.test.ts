import { rawFile as file, updateContext } from '@asof/test-kit';
import { describe, expect, it } from 'vitest';
import { EdgarConfig } from './edgar-config.ts';
import { planEdgarUpdate } from './plan-edgar-update.ts';

const RAW = EdgarConfig.parse({ raw_dir: 'edgar' });
const OLD = [
  { source: 'edgar', key: 'CIK1.json', sha256: 'a' },
  { source: 'fred', key: 'GDP.json', sha256: 'z' },
];

describe('planEdgarUpdate', () => {
  it('reads live tickers and synthetic companies again, without listing a folder', () => {
    const ctx = updateContext([], OLD);
    ctx.listRawDir = () => {
      throw new Error('listed');
    };
    for (const e of [
      { raw_dir: 'edgar', tickers: ['AAPL'] },
      { synthetic: { seed: 1, companies: 1, first_fiscal_year: 2020, fiscal_years: 1 } },
    ])
      expect(planEdgarUpdate(EdgarConfig.parse(e), ctx)).toEqual({
        action: 'rerun',
        reason: 'live or synthetic',
      });
  });

  it("reuses a folder holding OLD's inputs (only edgar's, and only the files its reader reads)", () => {
    const plan = planEdgarUpdate(RAW, updateContext([file('CIK1.json', 'a'), file('notes.txt', 'n')], OLD));
    expect(plan.action).toBe('reuse');
    expect([...(plan.files?.keys() ?? [])]).toEqual(['CIK1.json']);
  });

  it('decides per company when files changed, and reads a changed block again', () => {
    const now = [file('CIK1.json', 'b'), file('CIK2.json.gz', 'c')];
    expect(planEdgarUpdate(RAW, updateContext(now, OLD))).toMatchObject({
      action: 'entities',
      change: { added: ['CIK2.json.gz'], changed: ['CIK1.json'], removed: [] },
    });
    expect(planEdgarUpdate(RAW, updateContext(now, OLD, { sectionChanged: true }))).toMatchObject({
      action: 'rerun',
      reason: 'its pipeline block changed',
    });
  });
});
