import { CollectingSink } from '@asof/schema';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchEdgar, ingestEdgarLive } from './fetch-edgar.ts';
import { generateSyntheticEdgar } from './generate-synthetic-edgar.ts';
import { type EdgarRawFile, ingestEdgarRawFiles } from './ingest-edgar-raw-dir.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests edit raw SEC JSON of known shape in place
type Json = Record<string, any>;
const base = generateSyntheticEdgar({ seed: 7, companies: 1, fiscalYears: 2 });
/** The synthetic raw set with one file edited. */
function rawWith(edit: (name: string, json: Json) => void): EdgarRawFile[] {
  return base.map((f) => {
    const json = structuredClone(f.json) as Json;
    edit(f.name, json);
    return { name: f.name, json, sha256: '0'.repeat(64), bytes: 1 };
  });
}
const FACTS = 'companyfacts_CIK9990000001_SYNA.json';
const PAGE = 'submissions_CIK9990000001-submissions-001_SYNA.json';
const ingest = (files: EdgarRawFile[]) => () => ingestEdgarRawFiles(files, new CollectingSink());

describe('EDGAR raw files: strict dates and plausible values', () => {
  it('reads the unedited synthetic set', () => {
    expect(ingest(rawWith(() => {}))().series).toBeGreaterThan(5);
  });

  it('refuses an impossible companyfacts date, naming file, JSON path and field', () => {
    const files = rawWith((name, j) => {
      if (name === FACTS) j.facts['us-gaap'].Assets.units.USD[1].end = '2015-04-31';
    });
    expect(ingest(files)).toThrow(
      /^companyfacts_CIK9990000001_SYNA\.json facts\.us-gaap:Assets: not a valid SEC companyfacts concept: units\.USD\.1\.end: end: "2015-04-31" is not a calendar date \(April 2015 has 30 days\)/,
    );
    const filed = rawWith((name, j) => {
      if (name === FACTS) j.facts['us-gaap'].Assets.units.USD[0].filed = '2016-02-30';
    });
    expect(ingest(filed)).toThrow(
      /: units\.USD\.0\.filed: filed: "2016-02-30" is not a calendar date \(February 2016 has 29 days\)/,
    );
  });

  it('refuses a zone-less or impossible acceptanceDateTime and filingDate, naming row and field', () => {
    const zoneless = rawWith((name, j) => {
      if (name === PAGE) j.acceptanceDateTime[2] = j.acceptanceDateTime[2].replace(/\.\d+Z$|Z$/, '');
    });
    expect(ingest(zoneless)).toThrow(
      /^submissions_CIK9990000001-submissions-001_SYNA\.json: row 2 \(accession 9990000001-17-000006\), field acceptanceDateTime: "[\d-]+T[\d:]+" is not an instant \(it has no time zone/,
    );
    const rolled = rawWith((name, j) => {
      if (name === PAGE) j.filingDate[0] = '2018-02-31';
    });
    expect(ingest(rolled)).toThrow(
      /row 0 \(accession 9990000001-18-000008\), field filingDate: "2018-02-31" is not a calendar date/,
    );
  });

  it('refuses a finite but absurd value naming the fact', () => {
    const files = rawWith((name, j) => {
      if (name === FACTS) j.facts['us-gaap'].Assets.units.USD[3].val = 1e300;
    });
    expect(ingest(files)).toThrow(
      /facts\.us-gaap:Assets: .*: units\.USD\.3\.val: val: 1e\+300 is beyond ±1e15/,
    );
    // One line and the indented hint line, so the CLI prints a one-line cause and its fix.
    expect(() => ingest(files)()).toThrow(/^[^\n]+\n {2}hint: [^\n]+$/);
  });

  it('refuses a ticker with control characters in company_tickers.json', () => {
    const files = rawWith((name, j) => {
      if (name === 'company_tickers.json') j['0'].ticker = 'SY\u001b[2JNA';
    });
    expect(ingest(files)).toThrow(
      /company_tickers\.json: .*: 0\.ticker: ticker "SY\\u001b\[2JNA" contains a control character/,
    );
  });
});

describe('EDGAR live: User-Agent and network failures', () => {
  let agent: MockAgent;
  let requests = 0;
  afterEach(async () => {
    await agent?.close();
  });
  function mockSec(reply: 'ok' | 'no-network'): MockAgent {
    agent = new MockAgent();
    agent.disableNetConnect();
    requests = 0;
    for (const origin of ['https://www.sec.gov', 'https://data.sec.gov']) {
      const scope = agent.get(origin).intercept({ path: () => true, method: 'GET' });
      if (reply === 'ok')
        scope
          .reply(() => {
            requests++;
            return { statusCode: 200, data: '{}' };
          })
          .persist();
      else
        scope
          .replyWithError(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${new URL(origin).host}`), { code: 'ENOTFOUND' }),
          )
          .persist();
    }
    return agent;
  }

  it('refuses an invalid ASOF_SEC_USER_AGENT before any request, without echoing it', async () => {
    const cases: [string, string][] = [
      ['Rosa Quill rq@quillworks.com\r\nX-Evil: 1', 'EDGAR_USER_AGENT_INVALID'],
      ['Rösa Quill rq@quillworks.com', 'EDGAR_USER_AGENT_INVALID'],
      ['Rosa Quill rq@localhost', 'EDGAR_USER_AGENT_NO_CONTACT'],
      ['Rosa Quill', 'EDGAR_USER_AGENT_NO_CONTACT'],
      ['rq@quillworks.com', 'EDGAR_USER_AGENT_NO_NAME'],
    ];
    const dispatcher = mockSec('ok');
    for (const [ua, code] of cases) {
      const err = (await fetchEdgar({
        tickers: ['SYNA'],
        env: { ASOF_SEC_USER_AGENT: ua },
        dispatcher,
      }).catch((e: unknown) => e)) as { code: string; message: string; exitCode: number; context: unknown };
      expect(err, ua).toMatchObject({ code, exitCode: 2 });
      expect(err.message).toMatch(/ASOF_SEC_USER_AGENT is set but .*"Name email@domain"/);
      const said = `${err.message} ${JSON.stringify(err.context)}`;
      for (const part of ['Rosa', 'Rösa', 'Quill', 'rq@', 'quillworks', 'localhost', 'Evil'])
        expect(said, ua).not.toContain(part);
      expect(requests, ua).toBe(0);
    }
    // The same mock answers a valid User-Agent: the refusals above were the User-Agent's doing.
    await fetchEdgar({
      tickers: ['SYNA'],
      env: { ASOF_SEC_USER_AGENT: 'Rosa Quill rq@quillworks.com' },
      dispatcher,
    }).catch(() => {});
    expect(requests).toBeGreaterThan(0);
  });

  it('with no network, fails in one line naming the host and --offline / --raw-dir, never the User-Agent', async () => {
    const ua = 'Jane Doe jane.secret@example.com';
    const sink = new CollectingSink();
    const err = (await ingestEdgarLive(sink, {
      tickers: ['AAPL'],
      env: { ASOF_SEC_USER_AGENT: ua },
      dispatcher: mockSec('no-network'),
      retries: 1,
      log: () => {},
    }).catch((e: unknown) => e)) as { code: string; message: string; exitCode: number };
    expect(err.code).toBe('HTTP_UNREACHABLE');
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(
      /^cannot reach www\.sec\.gov \(ENOTFOUND, 2 attempts for GET https:\/\/www\.sec\.gov\/files\/company_tickers\.json\)/,
    );
    expect(err.message).toMatch(/--offline .*--raw-dir DIR/);
    expect(err.message).not.toContain('\n');
    expect(err.message).not.toContain('jane.secret');
  });
});
