import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isoToMicros } from '@asof/calendar';
import { describe, expect, it } from 'vitest';
import { parseSubmissions } from './parse-submissions.ts';
import { parseSubmissionsPage, parseSubmissionsPayload } from './submissions-payload.ts';

const SEC = fileURLToPath(new URL('../../../../shared/fixtures/real/sec/', import.meta.url));
const hasSec = existsSync(SEC);
const readJson = (name: string): unknown => JSON.parse(readFileSync(`${SEC}${name}`, 'utf8'));

const main = {
  cik: '0000000042',
  name: 'Tiny Corp',
  tickers: ['TINY'],
  fiscalYearEnd: '1231',
  filings: {
    recent: {
      accessionNumber: ['0000000042-21-000002', '0000000042-21-000001'],
      filingDate: ['2021-05-03', '2021-02-26'],
      reportDate: ['2021-03-31', '2020-12-31'],
      acceptanceDateTime: ['2021-05-03T16:10:00.000Z', '2021-02-25T19:00:00.000Z'],
      form: ['10-Q', '10-K'],
    },
    files: [{ name: 'CIK0000000042-submissions-001.json', filingCount: 1 }],
  },
};
const page = {
  accessionNumber: ['0000000042-20-000009', '0000000042-21-000001'],
  filingDate: ['2020-11-02', '1999-01-01'],
  reportDate: ['2020-09-30', ''],
  acceptanceDateTime: ['2020-11-02T08:00:00.000Z', ''],
  form: ['10-Q', '10-K'],
};

describe('parseSubmissions', () => {
  it('indexes recent filings and overflow pages by accession, first occurrence winning', () => {
    const s = parseSubmissions(parseSubmissionsPayload(main, 'main.json'), [
      { where: 'page.json', columns: parseSubmissionsPage(page, 'page.json') },
    ]);
    expect(s.cik).toBe('0000000042');
    expect(s.fiscalYearEnd).toBe('1231');
    expect(s.pageNames).toEqual(['CIK0000000042-submissions-001.json']);
    expect([...s.filings.keys()].sort()).toEqual([
      '0000000042-20-000009',
      '0000000042-21-000001',
      '0000000042-21-000002',
    ]);
    const k = s.filings.get('0000000042-21-000001')!;
    expect(k.filingDate).toBe('2021-02-26');
    // Accepted 19:00 ET on the 25th (after 17:30), dated the 26th: the 07:30 ET floor applies.
    expect(k.availableAt).toBe(isoToMicros('2021-02-26T12:30:00Z'));
    expect(s.filings.get('0000000042-20-000009')!.availableAt).toBe(isoToMicros('2020-11-02T13:00:00Z'));
  });

  it('rejects ragged columns, naming the column and both lengths', () => {
    const bad = { ...page, form: ['10-Q'] };
    expect(() =>
      parseSubmissions(parseSubmissionsPayload(main, 'main.json'), [
        { where: 'page.json', columns: parseSubmissionsPage(bad, 'page.json') },
      ]),
    ).toThrow(/page\.json: column form has 1 rows but accessionNumber has 2/);
  });

  it('rejects a payload without filings, naming the file and the path', () => {
    expect(() => parseSubmissionsPayload({ cik: '1', name: 'x' }, 'CIK0000000001.json')).toThrow(
      /CIK0000000001\.json: not a valid SEC submissions JSON: filings/,
    );
  });
});

describe.skipIf(!hasSec)('parseSubmissions on real SEC files (needs ../shared/fixtures/real/sec)', () => {
  it("follows Tesla's overflow page (a bare column object)", () => {
    const tsla = parseSubmissionsPayload(readJson('submissions_CIK0001318605_TSLA.json'), 'tsla');
    const columns = parseSubmissionsPage(
      readJson('submissions_CIK0001318605-submissions-001_TSLA.json'),
      'tsla-001',
    );
    expect(tsla.filings.files.map((f) => f.name)).toEqual(['CIK0001318605-submissions-001.json']);
    const withoutPage = parseSubmissions(tsla);
    const withPage = parseSubmissions(tsla, [{ where: 'tsla-001', columns }]);
    expect(withoutPage.filings.size).toBe(tsla.filings.recent.accessionNumber.length);
    expect(withPage.filings.size).toBe(withoutPage.filings.size + columns.accessionNumber.length);
    const oldest = [...withPage.filings.values()].map((f) => f.filingDate).sort()[0];
    expect(oldest < '2018-02-13').toBe(true);
    expect(oldest).toBe([...columns.filingDate].sort()[0]);
    // A page filing gets its acceptance-time availability, not the 23:59:59 fallback.
    const i = columns.form.indexOf('10-K');
    const f = withPage.filings.get(columns.accessionNumber[i])!;
    expect(f.acceptanceDateTime).toBe(columns.acceptanceDateTime![i]);
  });

  it('lists both of Microsoft’s overflow pages and keeps MRVL’s extra columns', () => {
    const msft = parseSubmissions(
      parseSubmissionsPayload(readJson('submissions_CIK0000789019_MSFT.json'), 'msft'),
    );
    expect(msft.pageNames).toHaveLength(2);
    expect(msft.fiscalYearEnd).toBe('0630');
    const mrvl = parseSubmissions(
      parseSubmissionsPayload(readJson('submissions_CIK0001835632_MRVL.json'), 'mrvl'),
    );
    expect(mrvl.pageNames).toEqual([]);
    expect(mrvl.filings.size).toBe(787);
  });
});
