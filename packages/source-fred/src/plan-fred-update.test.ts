import { rawFile as file, updateContext } from '@asof/test-kit';
import { describe, expect, it } from 'vitest';
import { FredConfig } from './fred-config.ts';
import { planFredUpdate } from './plan-fred-update.ts';

const RAW = FredConfig.parse({ raw_dir: 'fred' });
const OLD = [
  { source: 'fred', key: 'GDP.json', sha256: 'a' },
  { source: 'edgar', key: 'CIK1.json', sha256: 'z' },
];

describe('planFredUpdate', () => {
  it('reads live series, the catalog and synthetic ALFRED again', () => {
    const ctx = updateContext([file('GDP.json', 'a')], OLD);
    for (const f of [
      { raw_dir: 'fred', series: ['GDP'] },
      { raw_dir: 'fred', catalog: true },
      { synthetic: { seed: 1, start: '2020-01-01', end: '2020-12-31', count: 1 } },
    ])
      expect(planFredUpdate(FredConfig.parse(f), ctx)).toEqual({
        action: 'rerun',
        reason: 'live or synthetic',
      });
  });

  it("reuses a folder holding OLD's inputs and reads a changed one again whole", () => {
    expect(planFredUpdate(RAW, updateContext([file('GDP.json', 'a'), file('x.txt', 'x')], OLD)).action).toBe(
      'reuse',
    );
    expect(planFredUpdate(RAW, updateContext([file('GDP.json', 'b')], OLD))).toMatchObject({
      action: 'rerun',
      reason: 'raw files changed',
      change: { added: [], changed: ['GDP.json'], removed: [] },
    });
    expect(planFredUpdate(RAW, updateContext([], OLD))).toMatchObject({ change: { removed: ['GDP.json'] } });
    expect(
      planFredUpdate(RAW, updateContext([file('GDP.json', 'a')], OLD, { sectionChanged: true })),
    ).toMatchObject({
      reason: 'its pipeline block changed',
    });
  });
});
