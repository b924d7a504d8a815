import type { IngestAccounting } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { accountingWarnings, settleAccounting } from './ingest-accounting.ts';

const entry = (over: Partial<IngestAccounting>): IngestAccounting => ({
  source: 'edgar',
  file: 'a.json',
  record: 'fact',
  read: 1000,
  mapped: 900,
  dropped: { unknown_concept: 90, 'unit:pure': 10 },
  mappable: 910,
  ...over,
});

describe('ingest accounting', () => {
  it('sorts entries by source and file, and stops (exit 1, a bug) on counts that do not add up', () => {
    const b = entry({ file: 'b.json' });
    const a = entry({ file: 'a.json' });
    expect(settleAccounting([b, a]).map((e) => e.file)).toEqual(['a.json', 'b.json']);
    expect(() => settleAccounting([entry({ mapped: 899 })])).toThrow(
      expect.objectContaining({ code: 'ACCOUNTING_MISMATCH', exitCode: 1 }),
    );
  });

  it('warns on a reason over 1% of the mappable records, never on an out-of-scope one', () => {
    // 10 of 910 mappable is 1.1%: a warning naming the file and reason; 90 unknown concepts are out of scope.
    const [w, ...rest] = accountingWarnings([entry({})]);
    expect(rest).toEqual([]);
    expect(w).toMatchObject({ code: 'INGEST_DROPPED', count: 10 });
    expect(w.message).toMatch(/^edgar a\.json: 10 of 910 mappable facts \(1\.1%\) dropped as unit:pure/);
    // 9 of 910 is under 1%.
    expect(
      accountingWarnings([entry({ mapped: 901, dropped: { unknown_concept: 90, 'unit:pure': 9 } })]),
    ).toEqual([]);
  });
});
