import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCompanyTickers } from './company-tickers-payload.ts';
import { padCik, parseCompanyfactsPayload } from './companyfacts-payload.ts';
import { resolveTickers } from './ingest-edgar-raw-dir.ts';
import { parseCompanyfacts } from './parse-companyfacts.ts';

const SEC = fileURLToPath(new URL('../../../../shared/fixtures/real/sec/', import.meta.url));
const hasSec = existsSync(SEC);

const revenue = [
  { detail_category: 'Revenue', kind: 'flow' as const, units: ['USD'], concepts: ['Revenues'] },
];

describe('companyfacts payload', () => {
  it('accepts cik as an int or a zero-padded string and pads it to 10 digits', () => {
    expect(padCik(parseCompanyfactsPayload({ cik: 320193, entityName: 'A', facts: {} }, 'a').cik)).toBe(
      '0000320193',
    );
    expect(padCik(parseCompanyfactsPayload({ cik: '0001997711', entityName: 'L', facts: {} }, 'l').cik)).toBe(
      '0001997711',
    );
  });

  it('rejects a bad fact in a mapped concept, naming file, concept, path and the fix', () => {
    const payload = parseCompanyfactsPayload(
      {
        cik: 1,
        entityName: 'X',
        facts: {
          'us-gaap': {
            Revenues: {
              units: {
                USD: [
                  {
                    end: '2020-12-31',
                    start: '2020-01-01',
                    val: 'lots',
                    accn: '0000000001-21-000001',
                    form: '10-K',
                    filed: '2021-02-01',
                  },
                ],
              },
            },
          },
        },
      },
      'companyfacts_X.json',
    );
    expect(() => parseCompanyfacts(payload, revenue, 'companyfacts_X.json')).toThrow(
      /companyfacts_X\.json facts\.us-gaap:Revenues: not a valid SEC companyfacts concept: units\.USD\.0\.val: val must be a number\n {2}hint: pass the unmodified SEC response body/,
    );
  });

  it('resolves tickers case-insensitively, with BRK.B as an alias of BRK-B', () => {
    const idx = parseCompanyTickers(
      {
        '0': { cik_str: 1067983, ticker: 'BRK-B', title: 'BERKSHIRE' },
        '1': { cik_str: 320193, ticker: 'AAPL', title: 'Apple' },
      },
      't',
    );
    expect(idx.get('BRK.B')?.cik).toBe('0001067983');
    expect(idx.get('AAPL')?.cik).toBe('0000320193');
    expect(
      resolveTickers(['aapl', 'CIK0000320193', '1997711'], idx, 't').map((e) => [e.cik, e.ticker]),
    ).toEqual([
      ['0000320193', 'AAPL'],
      ['0000320193', 'AAPL'],
      ['0001997711', 'CIK0001997711'],
    ]);
    expect(() => resolveTickers(['AAPL', 'ZZZZ'], idx, 'tickers.json')).toThrow(
      /ticker\(s\) ZZZZ not found in tickers\.json/,
    );
  });
});

describe.skipIf(!hasSec)('companyfacts payload on real SEC files (needs ../shared/fixtures/real/sec)', () => {
  it('reads the IFRS filer LPA, whose cik is a string and which has no us-gaap block', () => {
    const raw = JSON.parse(readFileSync(`${SEC}companyfacts_CIK0001997711_LPA_ifrs_full.json`, 'utf8'));
    expect(typeof raw.cik).toBe('string');
    const parsed = parseCompanyfacts(parseCompanyfactsPayload(raw, 'lpa'), revenue);
    expect(parsed.cik).toBe('0001997711');
    expect(parsed.taxonomies.sort()).toEqual(['dei', 'ifrs-full']);
    expect(parsed.facts).toEqual([]);
  });
});
