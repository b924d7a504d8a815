import { describe, expect, it } from 'vitest';
import type { Candidate } from './question-candidate.ts';
import { sampleCandidates } from './sample-candidates.ts';
import { testContext } from './test-points.ts';

const candidate = (
  family: Candidate['family'],
  key: string,
  t: number,
  resolvesAt: number | null,
): Candidate => ({
  family,
  key,
  t,
  resolvesAt,
  make: () => {
    throw new Error('not made');
  },
});

describe('sampleCandidates', () => {
  const ctx = { ...testContext('1970-01-01T00:00:00Z', '1970-01-01T00:00:01Z'), cutoff: 1000, runDate: 5000 };
  const close = Array.from({ length: 40 }, (_, i) => candidate('EVT', `close|${i}`, 2000 + i, 3000 + i));
  const macro = Array.from({ length: 3 }, (_, i) => candidate('EVT', `macro|${i}`, 2000 + i, 3000 + i));
  const early = Array.from({ length: 5 }, (_, i) => candidate('EVT', `early|${i}`, 10 + i, 500 + i));
  const straddle = [candidate('EVT', 'straddle', 900, 1100)];

  it("keeps N per window in the seed's order, whatever order candidates come in, strata taking turns", () => {
    const counts = { candidates: {} };
    const a = sampleCandidates(
      [
        { family: 'EVT', stratum: 'close', candidates: [...close, ...early, ...straddle] },
        { family: 'EVT', stratum: 'macro', candidates: macro },
      ],
      ctx,
      6,
      counts,
    );
    const b = sampleCandidates(
      [
        { family: 'EVT', stratum: 'macro', candidates: [...macro].reverse() },
        { family: 'EVT', stratum: 'close', candidates: [...straddle, ...early, ...close].reverse() },
      ],
      ctx,
      6,
      { candidates: {} },
    );
    expect(a.map((l) => l.candidate.key)).toEqual(b.map((l) => l.candidate.key));
    const t2 = a.filter((l) => l.window === 'T2');
    expect(t2).toHaveLength(6);
    expect(t2.filter((l) => l.stratum === 'macro')).toHaveLength(3); // all 3 macro: turns, not crowding
    expect(a.filter((l) => l.window === 'T1')).toHaveLength(5);
    expect(counts).toEqual({ candidates: { EVT: { T2: 43, T1: 5, straddles_cutoff: 1 } } });
  });

  it('another seed keeps other instances', () => {
    const keys = (seed: string) =>
      sampleCandidates([{ family: 'EVT', stratum: 'close', candidates: close }], { ...ctx, seed }, 5, {
        candidates: {},
      })
        .map((l) => l.candidate.key)
        .join();
    expect(keys('0')).not.toBe(keys('1'));
  });
});
