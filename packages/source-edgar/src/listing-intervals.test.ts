import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { microsToIso } from '@asof/calendar';
import { CollectingSink, type MembershipRow } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { ingestEdgarPayloads } from './ingest-edgar-payloads.ts';
import { edgarListingIntervals } from './listing-intervals.ts';
import { parseSubmissions } from './parse-submissions.ts';
import { parseSubmissionsPage, parseSubmissionsPayload } from './submissions-payload.ts';

const SEC = fileURLToPath(new URL('../../../../shared/fixtures/real/sec/', import.meta.url));
const hasSec = existsSync(SEC);
const readJson = (name: string): unknown => JSON.parse(readFileSync(`${SEC}${name}`, 'utf8'));

const show = (rows: MembershipRow[]) =>
  rows.map((r) => [
    r.from === null ? null : microsToIso(r.from),
    r.to === null ? null : microsToIso(r.to),
    r.available_at === null ? null : microsToIso(r.available_at),
    r.source_ref,
  ]);

describe.skipIf(!hasSec)(
  'edgarListingIntervals on real submissions (needs ../shared/fixtures/real/sec)',
  () => {
    const tsla = (withPage: boolean) => {
      const main = parseSubmissionsPayload(readJson('submissions_CIK0001318605_TSLA.json'), 'tsla.json');
      const pages = withPage
        ? [
            {
              where: 'tsla-001.json',
              columns: parseSubmissionsPage(
                readJson('submissions_CIK0001318605-submissions-001_TSLA.json'),
                'tsla-001.json',
              ),
            },
          ]
        : [];
      return parseSubmissions(main, pages, 'tsla.json');
    };

    it('TSLA with its overflow page: listed from its 8-A12B of 2010-05-27 (10:09:45 New York), no end', () => {
      const rows = edgarListingIntervals(tsla(true), true);
      expect(show(rows)).toEqual([
        ['2010-05-27T14:09:45.000000Z', null, '2010-05-27T14:09:45.000000Z', '8-A12B 0001193125-10-129881'],
      ]);
      expect(rows[0]).toMatchObject({
        entity_id: '0001318605',
        universe: 'listed',
        source: 'edgar_submissions',
      });
    });

    it('TSLA without the page (2018 on): no listing filing, so no rows', () => {
      expect(edgarListingIntervals(tsla(false), false)).toEqual([]);
    });

    it('AAPL: listed before the records held; its notes removals (25-NSE, other file number) and the 2019 exchange move end nothing', () => {
      const s = parseSubmissions(
        parseSubmissionsPayload(readJson('submissions_CIK0000320193_AAPL.json'), 'aapl.json'),
        [],
        'aapl.json',
      );
      const forms = [...s.filings.values()].filter((f) => f.form === '25' || f.form === '25-NSE');
      // The index holds five removal filings: four 25-NSE under 000-10030 and the Form 25 of 2019-03-14, filed
      // minutes after an 8-A12B under the same file number as the 10-Ks (001-36743).
      expect(forms.map((f) => [f.form, f.fileNumber])).toEqual([
        ['25-NSE', '000-10030'],
        ['25-NSE', '000-10030'],
        ['25-NSE', '000-10030'],
        ['25-NSE', '000-10030'],
        ['25', '001-36743'],
      ]);
      const rows = edgarListingIntervals(s, false);
      expect(show(rows)).toEqual([
        [null, null, null, 'listed before the records held; first 8-A12B 0001193125-15-273818'],
      ]);
    });

    it('through ingestEdgarPayloads: AAPL gets its row (its overflow page is missing), LPA (skipped, IFRS) none', () => {
      const sink = new CollectingSink();
      ingestEdgarPayloads(
        [
          {
            companyfacts: {
              where: 'aapl-facts.json',
              json: readJson('companyfacts_CIK0000320193_AAPL_subset.json'),
            },
            submissions: { where: 'aapl.json', json: readJson('submissions_CIK0000320193_AAPL.json') },
          },
          {
            companyfacts: {
              where: 'lpa-facts.json',
              json: readJson('companyfacts_CIK0001997711_LPA_ifrs_full.json'),
            },
          },
        ],
        sink,
        {},
      );
      expect(sink.memberships.map((m) => [m.entity_id, m.from, m.to])).toEqual([['0000320193', null, null]]);
    });
  },
);

describe('edgarListingIntervals on hand-made indexes', () => {
  /** A submissions index of [accession, form, filingDate, acceptance (New York = given Z), fileNumber]. */
  const index = (rows: [string, string, string, string, string][]) =>
    parseSubmissions(
      parseSubmissionsPayload(
        {
          cik: '77',
          name: 'Gone Corp',
          filings: {
            recent: {
              accessionNumber: rows.map((r) => r[0]),
              form: rows.map((r) => r[1]),
              filingDate: rows.map((r) => r[2]),
              acceptanceDateTime: rows.map((r) => r[3]),
              fileNumber: rows.map((r) => r[4]),
            },
            files: [],
          },
        },
        'gone.json',
      ),
    );

  it('a listing from its 8-A12B to its Form 25 (the Form 15 after it changes nothing), and a relisting', () => {
    const rows = edgarListingIntervals(
      index([
        ['a1', '8-A12B', '2012-04-02', '2012-04-02T09:00:00.000Z', '001-1'],
        ['a2', '10-Q', '2012-05-10', '2012-05-10T16:00:00.000Z', '001-1'],
        ['a3', '25', '2020-03-02', '2020-03-02T17:45:00.000Z', '001-1'],
        ['a4', '15-12B', '2020-03-12', '2020-03-12T08:00:00.000Z', '001-1'],
        ['a5', '8-A12B', '2023-01-09', '2023-01-09T10:00:00.000Z', '001-1'],
      ]),
      true,
    );
    expect(show(rows)).toEqual([
      ['2012-04-02T13:00:00.000000Z', null, '2012-04-02T13:00:00.000000Z', '8-A12B a1'],
      ['2012-04-02T13:00:00.000000Z', '2020-03-02T22:45:00.000000Z', '2020-03-02T22:45:00.000000Z', '25 a3'],
      ['2023-01-09T15:00:00.000000Z', null, '2023-01-09T15:00:00.000000Z', '8-A12B a5'],
    ]);
  });

  it('a deregistration first: listed since before the records; a notes 25-NSE under another file number is ignored', () => {
    const rows = edgarListingIntervals(
      index([
        ['b1', '10-K', '2015-02-27', '2015-02-27T16:00:00.000Z', '001-9'],
        ['b2', '25-NSE', '2016-06-01', '2016-06-01T10:00:00.000Z', '333-5'],
        ['b3', '15-12G', '2018-08-15', '2018-08-15T11:00:00.000Z', '001-9'],
      ]),
      true,
    );
    expect(show(rows)).toEqual([
      [null, null, null, 'listed before the records held; first 15-12G b3'],
      [null, '2018-08-15T15:00:00.000000Z', '2018-08-15T15:00:00.000000Z', '15-12G b3'],
    ]);
  });
});
