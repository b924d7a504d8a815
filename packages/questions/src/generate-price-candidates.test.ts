import { describe, expect, it } from 'vitest';
import { generatePriceCandidates, PRICE_LOOKBACK_BARS, priceInputs } from './generate-price-candidates.ts';
import { generateRankCandidates, type RankDrops } from './generate-rank-candidates.ts';
import { testContext, testPoints } from './test-points.ts';

/** Weekday bars at 21:00 UTC from `from`, `n` of them, value(i); a restated bar when `restate` says so. */
function bars(
  id: string,
  from: string,
  n: number,
  value: (i: number) => number,
  restate?: (i: number) => number,
) {
  const rows: { ts: string; first: number; firstAt: string; latest: number }[] = [];
  for (let d = Date.parse(`${from}T21:00:00Z`); rows.length < n; d += 86_400_000) {
    const wd = new Date(d).getUTCDay();
    if (wd === 0 || wd === 6) continue;
    const iso = new Date(d).toISOString();
    const i: number = rows.length;
    rows.push({ ts: iso, first: value(i), firstAt: iso, latest: restate ? restate(i) : value(i) });
  }
  return testPoints(id, 'close', 'BD', rows);
}

describe('generatePriceCandidates', () => {
  // 2021-01-04 is a Monday: 60 bars to 2021-03-26 (a Friday).
  const p = bars(
    'syn:px:A:close',
    '2021-01-04',
    60,
    (i) => 100 + i,
    (i) => (i === 25 ? 999 : 100 + i),
  );
  const ctx = testContext('2021-02-01T00:00:00Z', '2021-03-29T00:00:00Z');
  const all = generatePriceCandidates([p], ctx, { val: true, evt: true });

  it("asks at the close of each week's last bar, about the close h bars later, resolved at its first publication", () => {
    const first = all.find((c) => c.key === 'VAL|syn:px:A:close|2021-01-08|5');
    expect(first?.t).toBe(p.firstAt[4]);
    expect(first?.resolvesAt).toBe(p.firstAt[9]);
    const d = first?.make();
    expect(d?.target).toBe('2021-01-15');
    expect(d?.reference).toBe(104);
    expect(d?.resolution?.value).toBe(109);
    expect(d?.baselines).toEqual([{ model: 'last_value', answer: 104 }]);
    expect(d?.inputs).toEqual([{ seriesId: 'syn:px:A:close', fromTs: p.ts[0] }]);
    expect(all.some((c) => c.key.includes('2021-01-07'))).toBe(false);
    // Bar 59's inputs reach back 260 bars by default (here the whole series), all bars with null.
    expect(priceInputs(p, 59, { ...ctx, priceLookbackBars: 10 })).toEqual([
      { seriesId: 'syn:px:A:close', fromTs: p.ts[50] },
    ]);
    expect(priceInputs(p, 59, { ...ctx, priceLookbackBars: null })).toEqual([
      { seriesId: 'syn:px:A:close', fromTs: null },
    ]);
  });

  it('records a restated target close as moved, never as the answer', () => {
    // Bar 25 (2021-02-08) is restated later; the week ending 2021-02-01 (bar 20) + 5 bars lands on it.
    const d = all.find((c) => c.key === 'VAL|syn:px:A:close|2021-02-01|5');
    expect(d).toBeUndefined(); // 2021-02-01 is a Monday, not a week's last bar
    const hit = all.find((c) => c.key === 'VAL|syn:px:A:close|2021-01-29|5')?.make();
    expect(hit?.target).toBe('2021-02-05');
    const moved = all
      .filter((c) => c.family === 'VAL')
      .map((c) => c.make())
      .filter((x) => x.resolution?.moved);
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((x) => x.resolution?.value === 125 && x.resolution.latestValue !== 125)).toBe(true);
  });

  it('open questions only after the cutoff and for a series still trading at the run date', () => {
    const open = all.filter((c) => c.resolvesAt === null);
    expect(open.length).toBeGreaterThan(0);
    expect(open.every((c) => c.t > ctx.cutoff && c.make().resolution === null)).toBe(true);
    // 21 bars after 2021-03-26 on the US calendar (Good Friday 2021-04-02 closed): 2021-04-27.
    expect(open.find((c) => c.key === 'EVT|syn:px:A:close|2021-03-26|21')?.make().target).toBe('2021-04-27');
    const late = generatePriceCandidates([p], testContext('2021-02-01T00:00:00Z', '2021-06-30T00:00:00Z'), {
      val: true,
      evt: false,
    });
    expect(late.filter((c) => c.resolvesAt === null)).toEqual([]);
  });

  it('EVT close events resolve on whether the first-published close rose; the base rate reads only bars known at t', () => {
    const e = all.find((c) => c.key === 'EVT|syn:px:A:close|2021-01-15|21')?.make();
    expect(e?.resolution?.value).toBe(1);
    expect(e?.baselines[0].answer).toBe(0.5); // only 10 bars known: no 21-bar window yet
    const later = all.find((c) => c.key === 'EVT|syn:px:A:close|2021-03-05|21')?.make();
    expect(later?.baselines[0].answer).toBe(1); // every window known rose
    expect(PRICE_LOOKBACK_BARS).toBe(260);
  });
});

describe('generateRankCandidates', () => {
  const up = (k: number) => bars(`syn:px:S${k}:close`, '2021-01-04', 40, (i) => 100 * (1 + 0.01 * k) ** i);
  const series = [0, 1, 2, 3, 4].map(up);
  it('ranks the members at t by their return over 21 bars, and leaves non-members out', () => {
    const spans = new Map([['syn:px:S4', [{ from: null, to: null, member: false }]]]);
    const drops: RankDrops = { subjects_without_target_bar: 0, dates_too_few_members: 0 };
    const ctx = testContext('2020-01-01T00:00:00Z', '2021-12-31T00:00:00Z', { spans });
    const ranks = generateRankCandidates(series, ctx, drops);
    const d = ranks.find((c) => c.key.startsWith('RANK|2021-01-08'))?.make();
    expect(d?.subjects).toEqual(['syn:px:S0:close', 'syn:px:S1:close', 'syn:px:S2:close', 'syn:px:S3:close']);
    expect(d?.resolution?.ranking).toEqual([
      'syn:px:S3:close',
      'syn:px:S2:close',
      'syn:px:S1:close',
      'syn:px:S0:close',
    ]);
    expect(d?.scorerParams).toEqual({ k: 1 });
    expect(d?.clusterId).toBe('RANK:2021-01-08');
    // Momentum at bar 4 has no 21-bar past: every stock 0, ordered by id.
    expect(d?.baselines[0]).toEqual({ model: 'momentum', answer: d?.subjects });
    expect([...((d?.baselines[1].answer ?? []) as string[])].sort()).toEqual(d?.subjects);
  });
});
