import { endOfDayMicros, isoToMicros, zonedMicros } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { parseCompanyfactsPayload } from './companyfacts-payload.ts';
import type { EdgarConceptMapping } from './edgar-concept-mapping.ts';
import { mapEdgarToAtomic } from './map-edgar-to-atomic.ts';
import { parseSubmissions } from './parse-submissions.ts';
import { parseSubmissionsPayload } from './submissions-payload.ts';

const conceptMap: EdgarConceptMapping[] = [
  {
    detail_category: 'Revenue',
    kind: 'flow',
    units: ['USD'],
    concepts: ['RevenueFromContractWithCustomerExcludingAssessedTax', 'Revenues'],
  },
  { detail_category: 'Total Assets', kind: 'instant', units: ['USD'], concepts: ['Assets'] },
  {
    detail_category: 'EPS Basic',
    kind: 'per_share',
    units: ['USD/shares'],
    concepts: ['EarningsPerShareBasic'],
  },
];
const A = '0000000077-21-000001';
const Q = '0000000077-20-000009';
const meta = (accn: string, form: string, filed: string) => ({ accn, form, filed, fy: 2020, fp: 'FY' });
const companyfacts = (facts: Record<string, unknown>) =>
  parseCompanyfactsPayload({ cik: 77, entityName: 'Tiny Widgets Corp', facts }, 'companyfacts_tiny.json');

const tiny = companyfacts({
  'us-gaap': {
    Revenues: {
      units: {
        USD: [
          { start: '2020-02-02', end: '2020-11-01', val: 75, ...meta(Q, '10-Q', '2020-12-03') },
          { start: '2020-08-03', end: '2020-11-01', val: 26, ...meta(Q, '10-Q', '2020-12-03') },
          { start: '2020-02-02', end: '2021-01-31', val: 100, ...meta(A, '10-K', '2021-03-10') },
        ],
      },
    },
    Assets: { units: { USD: [{ end: '2021-01-31', val: 900, ...meta(A, '10-K', '2021-03-10') }] } },
    EarningsPerShareBasic: {
      units: {
        'USD/shares': [
          { start: '2020-02-02', end: '2021-01-31', val: 1.5, ...meta(A, '10-K', '2021-03-10') },
        ],
      },
    },
  },
});

describe('mapEdgarToAtomic', () => {
  it('emits Q and A series per category with fiscal-period timestamps and filing availability', () => {
    const submissions = parseSubmissions(
      parseSubmissionsPayload(
        {
          cik: '0000000077',
          name: 'Tiny Widgets Corp',
          fiscalYearEnd: '0131',
          filings: {
            recent: {
              accessionNumber: [A, Q],
              filingDate: ['2021-03-10', '2020-12-03'],
              acceptanceDateTime: ['2021-03-10T16:02:11.000Z', '2020-12-02T18:45:00.000Z'],
              form: ['10-K', '10-Q'],
            },
          },
        },
        'subs',
      ),
    );
    const sink = new CollectingSink();
    const s = mapEdgarToAtomic({ companyfacts: tiny, submissions, ticker: 'TINY', where: 'tiny' }, sink, {
      conceptMap,
    });
    expect(sink.series.map((x) => x.series_id)).toEqual([
      'edgar:0000000077:revenue:Q',
      'edgar:0000000077:revenue:A',
      'edgar:0000000077:total-assets:Q',
      'edgar:0000000077:total-assets:A',
      'edgar:0000000077:eps-basic:A',
    ]);
    expect(sink.series[0]).toMatchObject({
      entity_id: '0000000077',
      fiscal_year_end: '0131',
      frequency: 'Q',
      currency: 'USD',
    });
    const q4 = sink.observations.find((o) => o.source_ref.startsWith('derived:'))!;
    expect(q4).toEqual({
      series_id: 'edgar:0000000077:revenue:Q',
      timestamp: endOfDayMicros('2021-01-31', 'America/New_York'),
      period_start: zonedMicros('2020-11-02', '00:00', 'America/New_York'),
      available_at: isoToMicros('2021-03-10T21:02:11Z'),
      value: 25,
      available_at_basis: 'filing',
      source_ref: `derived:Q4=FY(${A})-9M(${Q})`,
    });
    const q3 = sink.observations.find(
      (o) => o.series_id === 'edgar:0000000077:revenue:Q' && o.source_ref === Q,
    )!;
    // Accepted 18:45 ET on 2020-12-02, dated 2020-12-03: posted 07:30 ET on the 3rd.
    expect(q3.available_at).toBe(isoToMicros('2020-12-03T12:30:00Z'));
    const assets = sink.observations.filter((o) => o.series_id.includes('total-assets'));
    expect(assets.map((o) => o.period_start)).toEqual([null, null]);
    expect(s).toMatchObject({
      status: 'ingested',
      series: 5,
      observations: 6,
      derived_q4: 1,
      facts_dated_by_filed: 0,
    });
  });

  it('without submissions, dates facts at the filing date 23:59:59 ET and infers the fiscal year end', () => {
    const sink = new CollectingSink();
    const s = mapEdgarToAtomic({ companyfacts: tiny, submissions: null, where: 'tiny' }, sink, {
      conceptMap,
    });
    expect(sink.series[0].fiscal_year_end).toBe('0131');
    expect(
      sink.observations.every((o) =>
        [isoToMicros('2020-12-04T04:59:59Z'), isoToMicros('2021-03-11T04:59:59Z')].includes(o.available_at),
      ),
    ).toBe(true);
    expect(s.facts_dated_by_filed).toBe(5);
  });

  it('never makes a value available before its period ends', () => {
    const early = companyfacts({
      'us-gaap': {
        Revenues: {
          units: {
            USD: [{ start: '2020-01-01', end: '2020-12-31', val: 5, ...meta(A, '10-K', '2020-12-31') }],
          },
        },
      },
    });
    const sink = new CollectingSink();
    const s = mapEdgarToAtomic({ companyfacts: early, submissions: null, where: 'early' }, sink, {
      conceptMap,
      isSynthetic: true,
    });
    expect(sink.observations[0].available_at).toBe(sink.observations[0].timestamp);
    expect(sink.observations[0].series_id).toBe('syn:edgar:0000000077:revenue:A');
    expect(s.facts_clamped_to_period_end).toBe(1);
    expect(sink.warnings).toEqual([
      expect.objectContaining({ code: 'EDGAR_FILED_BEFORE_PERIOD_END', count: 1 }),
    ]);
  });

  it('skips IFRS-only filers and companies without mapped concepts, with a reason', () => {
    const sink = new CollectingSink();
    const ifrs = mapEdgarToAtomic(
      {
        companyfacts: companyfacts({ dei: {}, 'ifrs-full': { Revenue: { units: {} } } }),
        submissions: null,
        where: 'x',
      },
      sink,
      { conceptMap },
    );
    expect(ifrs.status).toBe('skipped');
    expect(ifrs.reason).toMatch(
      /^IFRS filer: companyfacts has no us-gaap facts \(taxonomies: dei, ifrs-full\)/,
    );
    const none = mapEdgarToAtomic(
      {
        companyfacts: companyfacts({ 'us-gaap': { GrossProfit: { units: { USD: [] } } } }),
        submissions: null,
        where: 'y',
      },
      sink,
      { conceptMap },
    );
    expect(none.reason).toMatch(/none of the mapped us-gaap concepts of the 3 Fundamentals categories/);
    expect(sink.series).toEqual([]);
    expect(sink.warnings.map((w) => w.code)).toEqual(['EDGAR_COMPANY_SKIPPED', 'EDGAR_COMPANY_SKIPPED']);
  });
});
