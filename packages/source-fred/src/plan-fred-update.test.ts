import type { SourceOldInput, SourceRawFile, SourceUpdateContext } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { FredConfig } from './fred-config.ts';
import { planFredUpdate } from './plan-fred-update.ts';

const file = (name: string, sha256: string): SourceRawFile => ({ name, sha256, bytes: 1, head: '' });

/** An update context over an in-memory folder: what the build would list and what OLD read. */
function context(now: SourceRawFile[], old: SourceOldInput[], sectionChanged = false): SourceUpdateContext {
  return {
    sectionChanged,
    oldInputs: old,
    listRawDir: (_dir, filter) => new Map(now.filter((f) => filter.keep(f.name)).map((f) => [f.name, f])),
    hashFile: () => null,
  };
}

const RAW = FredConfig.parse({ raw_dir: 'fred' });
const OLD = [
  { source: 'fred', key: 'GDP.json', sha256: 'a' },
  { source: 'edgar', key: 'CIK1.json', sha256: 'z' },
];

describe('planFredUpdate', () => {
  it('reads live series, the catalog and synthetic ALFRED again', () => {
    const ctx = context([file('GDP.json', 'a')], OLD);
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
    expect(planFredUpdate(RAW, context([file('GDP.json', 'a'), file('x.txt', 'x')], OLD)).action).toBe(
      'reuse',
    );
    expect(planFredUpdate(RAW, context([file('GDP.json', 'b')], OLD))).toMatchObject({
      action: 'rerun',
      reason: 'raw files changed',
      change: { added: [], changed: ['GDP.json'], removed: [] },
    });
    expect(planFredUpdate(RAW, context([], OLD))).toMatchObject({ change: { removed: ['GDP.json'] } });
    expect(planFredUpdate(RAW, context([file('GDP.json', 'a')], OLD, true))).toMatchObject({
      reason: 'its pipeline block changed',
    });
  });
});
