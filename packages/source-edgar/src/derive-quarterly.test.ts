import { describe, expect, it } from 'vitest';
import { type DatedFact, deriveQuarterly, mergeVintages } from './derive-quarterly.ts';
import type { EdgarConceptKind } from './edgar-concept-mapping.ts';
import { classifyPeriod, dayNumber } from './parse-companyfacts.ts';

let nextId = 0;

/** A fact; `at` orders filings (µs), the accession is derived from it. */
function fact(
  category: string,
  kind: EdgarConceptKind,
  start: string | null,
  end: string,
  value: number,
  at: number,
  form = '10-Q',
  extra: Partial<DatedFact> = {},
): DatedFact {
  return {
    detail_category: category,
    kind,
    concept: category,
    conceptRank: 0,
    unit: kind === 'per_share' ? 'USD/shares' : kind === 'shares' ? 'shares' : 'USD',
    start,
    end,
    periodClass: classifyPeriod(start, end),
    value,
    accn: `0000000001-00-${String(at).padStart(6, '0')}`,
    form,
    filed: '2000-01-01',
    id: nextId++,
    availableAt: at,
    ...extra,
  };
}
const accn = (at: number) => `0000000001-00-${String(at).padStart(6, '0')}`;

function periods(facts: DatedFact[], category: string, frequency: 'Q' | 'A') {
  const r = deriveQuarterly(facts);
  return (
    r.categories
      .find((c) => c.detail_category === category)
      ?.periods.filter((p) => p.frequency === frequency) ?? []
  );
}

describe('mergeVintages', () => {
  it('emits a row only when the effective value changes; the higher-priority stream wins', () => {
    const rows = mergeVintages([
      [
        { availableAt: 30, value: 5, sourceRef: 'r1' },
        { availableAt: 40, value: 5, sourceRef: 'r2' },
      ],
      [
        { availableAt: 10, value: 4, sourceRef: 'd1' },
        { availableAt: 20, value: 4, sourceRef: 'd2' },
        { availableAt: 50, value: 7, sourceRef: 'd3' },
      ],
    ]);
    expect(rows).toEqual([
      { availableAt: 10, value: 4, sourceRef: 'd1' },
      { availableAt: 30, value: 5, sourceRef: 'r1' },
    ]);
  });
});

describe('deriveQuarterly', () => {
  const fy = ['2020-01-01', '2020-12-31'] as const;
  const nine = ['2020-01-01', '2020-09-30'] as const;
  // Next year's filings report their own year too: that, not companyfacts `fy`, names their filing year.
  const fy2021 = ['2021-01-01', '2021-12-31'] as const;
  const nine2021 = ['2021-01-01', '2021-09-30'] as const;

  it('derives Q4 = FY − 9M for USD flows and re-derives it when the FY is amended', () => {
    const facts = [
      fact('Revenue', 'flow', '2020-07-01', '2020-09-30', 30, 100),
      fact('Revenue', 'flow', ...nine, 75, 100),
      fact('Revenue', 'flow', ...fy, 110, 200, '10-K'),
      fact('Revenue', 'flow', ...fy, 104, 300, '10-K/A'),
      // A later 10-Q repeats the 9M comparative unchanged: no new row.
      fact('Revenue', 'flow', ...nine, 75, 400),
    ];
    const q = periods(facts, 'Revenue', 'Q');
    const q4 = q.find((p) => p.end === '2020-12-31')!;
    expect(q4.start).toBe('2020-10-01');
    expect(q4.rows.map((r) => [r.availableAt, r.value])).toEqual([
      [200, 35],
      [300, 29],
    ]);
    expect(q4.rows[1].sourceRef).toBe(`derived:Q4=FY(${accn(300)})-9M(${accn(100)})`);
    const a = periods(facts, 'Revenue', 'A');
    expect(a.map((p) => p.rows.map((r) => r.value))).toEqual([[110, 104]]);
  });

  it("pairs FY and 9M from the same filing year: next year's restated comparatives wait for both sides", () => {
    const facts = [
      fact('Revenue', 'flow', ...nine, 75, 100),
      fact('Revenue', 'flow', ...fy, 110, 200, '10-K'),
      // Next year's 10-K restates FY 2020 (e.g. a discontinued operation) …
      fact('Revenue', 'flow', ...fy, 100, 500, '10-K'),
      fact('Revenue', 'flow', ...fy2021, 120, 500, '10-K'),
      // … and next year's Q3 10-Q restates the 9M comparative.
      fact('Revenue', 'flow', ...nine, 68, 800, '10-Q'),
      fact('Revenue', 'flow', ...nine2021, 90, 800, '10-Q'),
    ];
    const q4 = periods(facts, 'Revenue', 'Q').find((p) => p.end === '2020-12-31')!;
    // No 100 − 75 = 25 mixture at 500: the restated Q4 (32) appears once both restated sides are out.
    expect(q4.rows.map((r) => [r.availableAt, r.value])).toEqual([
      [200, 35],
      [800, 32],
    ]);
  });

  it("does not let an older filing year's late amendment override a newer year's derivation", () => {
    const facts = [
      fact('Revenue', 'flow', ...nine, 75, 100),
      fact('Revenue', 'flow', ...fy, 110, 200, '10-K'),
      fact('Revenue', 'flow', ...fy, 100, 500, '10-K'),
      fact('Revenue', 'flow', ...fy2021, 120, 500, '10-K'),
      fact('Revenue', 'flow', ...nine, 68, 800, '10-Q'),
      fact('Revenue', 'flow', ...nine2021, 90, 800, '10-Q'),
      // A 10-K/A for fiscal 2020 filed after that, repeating the original FY.
      fact('Revenue', 'flow', ...fy, 110, 900, '10-K/A'),
    ];
    const q4 = periods(facts, 'Revenue', 'Q').find((p) => p.end === '2020-12-31')!;
    expect(q4.rows.map((r) => r.value)).toEqual([35, 32]);
  });

  it('prefers a reported 3-month Q4 from the moment it is known', () => {
    const facts = [
      fact('Revenue', 'flow', ...nine, 75, 100),
      fact('Revenue', 'flow', ...fy, 110, 200, '10-K'),
      fact('Revenue', 'flow', '2020-10-01', '2020-12-31', 36, 250, '8-K'),
    ];
    const q4 = periods(facts, 'Revenue', 'Q').find((p) => p.end === '2020-12-31')!;
    expect(q4.rows.map((r) => [r.value, r.sourceRef])).toEqual([
      [35, `derived:Q4=FY(${accn(200)})-9M(${accn(100)})`],
      [36, accn(250)],
    ]);
  });

  it('derives only from periodic forms (10-K/10-Q), only with the same fiscal-year start', () => {
    const eightK = [
      fact('Revenue', 'flow', ...nine, 75, 100),
      fact('Revenue', 'flow', ...fy, 110, 200, '8-K'),
    ];
    expect(periods(eightK, 'Revenue', 'Q').filter((p) => p.end === '2020-12-31')).toEqual([]);
    const otherStart = [
      fact('Revenue', 'flow', '2019-12-29', '2020-09-26', 75, 100),
      fact('Revenue', 'flow', ...fy, 110, 200, '10-K'),
    ];
    expect(periods(otherStart, 'Revenue', 'Q').filter((p) => p.end === '2020-12-31')).toEqual([]);
  });

  it('never differences per-share values or share counts', () => {
    const facts = [
      fact('EPS Diluted', 'per_share', ...nine, 2.1, 100),
      fact('EPS Diluted', 'per_share', ...fy, 3.0, 200, '10-K'),
      fact('Shares Diluted', 'shares', ...nine, 1000, 100),
      fact('Shares Diluted', 'shares', ...fy, 1010, 200, '10-K'),
    ];
    const r = deriveQuarterly(facts);
    for (const c of r.categories) expect(c.periods.filter((p) => p.frequency === 'Q')).toEqual([]);
    expect(r.derivedQ4).toBe(0);
  });

  it('derives Q4 EPS from Q4 net income / Q4 weighted shares, marked in source_ref', () => {
    const facts = [
      fact('Net Income', 'flow', ...nine, 90, 100),
      fact('Net Income', 'flow', ...fy, 130, 200, '10-K'),
      fact('Shares Diluted', 'shares', '2020-10-01', '2020-12-31', 20, 200, '10-K'),
      fact('EPS Diluted', 'per_share', ...fy, 6.4, 200, '10-K'),
    ];
    const r = deriveQuarterly(facts, {
      epsFromNetIncome: { 'EPS Diluted': { netIncome: 'Net Income', shares: 'Shares Diluted' } },
    });
    const eps = r.categories.find((c) => c.detail_category === 'EPS Diluted')!;
    const q4 = eps.periods.find((p) => p.frequency === 'Q')!;
    expect(q4.end).toBe('2020-12-31');
    expect(q4.rows).toHaveLength(1);
    expect(q4.rows[0].value).toBe(40 / 20);
    expect(q4.rows[0].sourceRef).toMatch(
      /^derived:Q4EPS=NI\[derived:Q4=FY\(.+\)-9M\(.+\)\]\/WSH\[0000000001-00-000200\]$/,
    );
    expect(r.derivedQ4Eps).toBe(1);
  });

  it('puts instants on fiscal quarter ends into Q, fiscal year ends into A, and drops other dates', () => {
    const facts = [
      fact('Revenue', 'flow', '2020-07-01', '2020-09-30', 30, 100),
      fact('Revenue', 'flow', ...fy, 110, 200, '10-K'),
      fact('Total Assets', 'instant', null, '2020-09-30', 500, 100),
      fact('Total Assets', 'instant', null, '2020-12-31', 520, 200, '10-K'),
      fact('Total Assets', 'instant', null, '2020-11-15', 510, 200, '10-K'),
    ];
    expect(periods(facts, 'Total Assets', 'Q').map((p) => [p.start, p.end])).toEqual([
      [null, '2020-09-30'],
      [null, '2020-12-31'],
    ]);
    expect(periods(facts, 'Total Assets', 'A').map((p) => p.end)).toEqual(['2020-12-31']);
  });

  it('takes, per filing, the value of the highest-priority concept that filing used', () => {
    const facts = [
      fact('Revenue', 'flow', ...fy, 100, 100, '10-K', { concept: 'SalesRevenueNet', conceptRank: 2 }),
      fact('Revenue', 'flow', ...fy, 100, 200, '10-K', { concept: 'RevenueFromContract', conceptRank: 0 }),
      fact('Revenue', 'flow', ...fy, 98, 200, '10-K', { concept: 'Revenues', conceptRank: 1 }),
    ];
    const a = periods(facts, 'Revenue', 'A');
    expect(a[0].rows.map((r) => r.value)).toEqual([100]);
  });

  it('classifies 52/53-week quarters and years', () => {
    expect(classifyPeriod('2020-01-27', '2021-01-31')).toBe('FY'); // 53 weeks
    expect(classifyPeriod('2020-10-26', '2021-01-31')).toBe('3M'); // 14 weeks
    expect(classifyPeriod('2020-01-27', '2020-10-25')).toBe('9M');
    expect(classifyPeriod('2020-01-27', '2020-07-26')).toBe('other'); // 6M YTD
    expect(classifyPeriod(null, '2020-07-26')).toBe('instant');
  });

  it('counts days like Date.UTC, leap years and century rules included', () => {
    for (const d of [
      '1970-01-01',
      '1999-12-31',
      '2000-02-29',
      '2000-03-01',
      '2100-03-01',
      '2024-02-29',
      '2026-11-30',
    ]) {
      expect(dayNumber(d), d).toBe(Date.parse(`${d}T00:00:00Z`) / 86_400_000);
    }
  });
});
