import { describe, expect, it } from 'vitest';
import {
  generateFundCandidates,
  generateMacroEventCandidates,
  generateRevenueEventCandidates,
  nextPeriodLabel,
} from './generate-release-candidates.ts';
import { DAY_US } from './question-candidate.ts';
import { testContext, testPoints } from './test-points.ts';

// A monthly macro series: period M's first release on the 15th of M+1 at 12:30 UTC; 2021-03 was revised
// below 2021-02 later, so its event flips; 2021-05 came out the same day as 2021-04 (no question for it).
const macro = testPoints('syn:fred:X', 'macro', 'M', [
  { ts: '2021-01-31T23:59:59Z', first: 100, firstAt: '2021-02-15T12:30:00Z' },
  { ts: '2021-02-28T23:59:59Z', first: 101, firstAt: '2021-03-15T12:30:00Z' },
  { ts: '2021-03-31T23:59:59Z', first: 102, firstAt: '2021-04-15T12:30:00Z', latest: 100.5 },
  { ts: '2021-04-30T23:59:59Z', first: 101, firstAt: '2021-05-15T12:30:00Z' },
  { ts: '2021-05-31T23:59:59Z', first: 103, firstAt: '2021-05-15T12:30:00Z' },
  { ts: '2021-06-30T23:59:59Z', first: 104, firstAt: '2021-07-15T12:30:00Z' },
]);

describe('nextPeriodLabel', () => {
  it('steps months and quarters across year ends', () => {
    expect(nextPeriodLabel('2023-12')).toBe('2024-01');
    expect(nextPeriodLabel('2023-09')).toBe('2023-10');
    expect(nextPeriodLabel('2023Q4')).toBe('2024Q1');
    expect(nextPeriodLabel('2023Q2')).toBe('2023Q3');
  });
});

describe('generateMacroEventCandidates', () => {
  const ctx = testContext('2021-03-01T00:00:00Z', '2021-07-20T00:00:00Z');
  const candidates = generateMacroEventCandidates([macro], ctx);
  const byTarget = new Map(candidates.map((c) => [c.make().target, c]));

  it("asks about period j a day after the first release of j−1, and resolves at j's first release", () => {
    const c = byTarget.get('2021-02');
    expect(c?.t).toBe(macro.firstAt[0] + DAY_US);
    expect(c?.resolvesAt).toBe(macro.firstAt[1]);
    const d = c?.make();
    expect(d?.reference).toBe(100);
    expect(d?.resolution?.value).toBe(1);
  });

  it('leaves out a period published with (or before) the one it would be compared with', () => {
    // 2021-05 was public with 2021-04, so a day after 2021-04's release it was no longer a forecast.
    expect(byTarget.has('2021-05')).toBe(false);
    // 2021-07: the open question after the last release (below).
    expect([...byTarget.keys()].sort()).toEqual(['2021-02', '2021-03', '2021-04', '2021-06', '2021-07']);
  });

  it('resolves on first releases and says when the latest values would flip the outcome', () => {
    const r = byTarget.get('2021-03')?.make().resolution;
    expect(r?.value).toBe(1); // 102 > 101 as first released
    expect(r?.latestValue).toBe(0); // 100.5 < 101 after the revision
    expect(r?.flipped).toBe(true);
    const r4 = byTarget.get('2021-04')?.make().resolution;
    expect(r4?.value).toBe(0); // 101 < 102 (the first release of 2021-03, not its revision)
    expect(r4?.latestValue).toBe(1); // 101 > 100.5
  });

  it('the base rate counts only the first releases public at t', () => {
    const b = byTarget.get('2021-03')?.make().baselines;
    // At t (2021-03-16) the public pairs are 2021-02 vs 2021-01 (up): base rate 1.
    expect(b).toEqual([
      { model: 'base_rate', answer: 1 },
      { model: 'coin_flip', answer: 0.5 },
    ]);
  });

  it('an open question for the next period, after the cutoff, while the series is published', () => {
    const open = candidates.filter((c) => c.resolvesAt === null);
    expect(open.map((c) => c.make().target)).toEqual(['2021-07']);
    expect(open[0].make().resolution).toBeNull();
    const stale = generateMacroEventCandidates(
      [macro],
      testContext('2021-03-01T00:00:00Z', '2021-12-31T00:00:00Z'),
    );
    expect(stale.filter((c) => c.resolvesAt === null)).toEqual([]);
  });
});

describe('FUND and revenue events', () => {
  const rows = [];
  for (let k = 0; k < 10; k++) {
    const y = 2019 + Math.floor(k / 4);
    const q = (k % 4) + 1;
    const end = new Date(Date.UTC(y, q * 3, 0)).toISOString().slice(0, 10);
    const filed = new Date(Date.UTC(y, q * 3, 0) + 40 * 86_400_000).toISOString().slice(0, 10);
    rows.push({
      ts: `${end}T23:59:59Z`,
      first: 100 + 10 * k + (q === 4 ? 25 : 0),
      firstAt: `${filed}T20:00:00Z`,
    });
  }
  const revenue = testPoints('syn:edgar:1:revenue:Q', 'fund', 'Q', rows);
  const ctx = testContext('2020-06-30T00:00:00Z', '2021-09-30T00:00:00Z');

  it('FUND asks once four first-reported quarters are known, scaled by the mean absolute change of the last 8', () => {
    const fund = generateFundCandidates([revenue], ctx);
    expect(fund.map((c) => c.make().target)).toEqual([
      '2020Q1',
      '2020Q2',
      '2020Q3',
      '2020Q4',
      '2021Q1',
      '2021Q2',
      '2021Q3',
    ]);
    const d = fund.find((c) => c.make().target === '2020Q1')?.make();
    // Known at t: 2019Q1..Q4 = 100, 110, 120, 155; changes 10, 10, 35: mean 18.333…
    expect(d?.reference).toBe(155);
    expect(d?.scorerParams.scale).toBeCloseTo(55 / 3, 12);
    expect(d?.resolution?.value).toBe(140);
    expect(d?.baselines).toEqual([{ model: 'last_value', answer: 155 }]);
  });

  it('the revenue event compares with the same quarter a year earlier, as first reported', () => {
    const evt = generateRevenueEventCandidates([revenue], ctx);
    const d = evt.find((c) => c.make().target === '2020Q4')?.make();
    expect(d?.reference).toBe(155);
    expect(d?.resolution?.value).toBe(1); // 195 > 155
    expect(evt.every((c) => c.make().clusterId === 'entity:syn:edgar:1:revenue')).toBe(true);
  });
});
