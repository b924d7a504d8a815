import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asof, type CliRun, scratchOut } from './helpers.ts';

// Issue 15, Build 6–7, the source side: bad raw files and pipelines exit non-zero with a one-line cause
// naming the file, row and field, and leave no output behind.
const tmp = mkdtempSync(join(tmpdir(), 'asof-bad-sources-'));
const outs: string[] = [];
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
  for (const abs of outs) {
    rmSync(abs, { recursive: true, force: true });
    rmSync(join(dirname(abs), '.asof', basename(abs)), { recursive: true, force: true });
  }
});

let n = 0;
function rawDir(files: Record<string, string>): string {
  const dir = join(tmp, `raw${n++}`);
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  return dir;
}
function pipeline(body: unknown): string {
  const path = join(tmp, `p${n++}.json`);
  writeFileSync(path, JSON.stringify(body));
  return path;
}
function out(tag: string) {
  const o = scratchOut(`bad-src-${tag}`);
  outs.push(o.abs);
  return o;
}

/** The error line of a failed run: exactly one line besides progress lines and an indented hint. */
function cause(r: CliRun): string {
  const lines = r.stderr
    .split('\n')
    .filter((l) => l !== '' && !/^asof \w+: \[\d+\.\ds\]/.test(l) && !l.startsWith('  hint:'));
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0];
}

/** Runs, expects exit 2, no output folder, and returns the one-line cause. */
async function refused(tag: string, ...argv: string[]): Promise<string> {
  const o = out(tag);
  const r = await asof(...argv, '--out', o.rel);
  expect(r.code, r.stderr).toBe(2);
  expect(existsSync(o.abs)).toBe(false);
  return cause(r);
}

const STOOQ = 'Date,Open,High,Low,Close,Volume';
const bar = (date: string, close = '10.5') => `${date},10,11,9,${close},100`;

describe('pipelines that would build nothing', () => {
  it('sources: {} exits 2 in one line', async () => {
    expect(await refused('no-sources', 'build', pipeline({ name: 'x', sources: {} }))).toMatch(
      /^asof build: .*\.json: sources: no source configured, so the build would be empty; add at least one of embedded, edgar, fred, prices, fredmd, rtdsm, scale/,
    );
  });

  it('an empty synthetic date range exits 2 naming the field', async () => {
    const body = {
      name: 'x',
      sources: {
        embedded: { synthetic: { seed: 1, start: '2021-02-01', end: '2021-01-01', instruments: 2 } },
      },
    };
    expect(await refused('empty-range', 'build', pipeline(body))).toMatch(
      /sources\.embedded\.synthetic\.end: the range 2021-02-01 … 2021-01-01 is empty: end is before start/,
    );
  });

  it('a build whose sources produce 0 series exits 2 naming the counts', async () => {
    // A valid range without a weekday: the synthetic panel declares its series but has no bar.
    const weekend = {
      name: 'weekend',
      sources: {
        embedded: { synthetic: { seed: 1, start: '2021-01-02', end: '2021-01-03', instruments: 2 } },
      },
    };
    expect(await refused('weekend', 'build', pipeline(weekend))).toBe(
      'asof build: pipeline weekend: the sources produced 0 series with observations (embedded: 10 series, 0 observations); nothing to build. Check the date ranges and that each raw_dir holds data files',
    );
    // An ingest of a folder with no price file at all.
    const dir = rawDir({ 'notes.txt': 'Ticker,Name\nABC,Abc Corp\n' });
    expect(await refused('no-prices', 'ingest', 'prices', '--raw-dir', dir)).toMatch(
      /^asof ingest: pipeline ingest-prices: the sources produced 0 series with observations \(no source emitted a series\)/,
    );
  });

  it('a CSV of no known price format exits 2 naming the file, its first line and the formats known', async () => {
    // Issue 49: an unknown file in a price folder is not skipped without a word.
    const dir = rawDir({ 'notes.csv': 'Ticker,Name\nABC,Abc Corp\n' });
    expect(await refused('unknown-format', 'ingest', 'prices', '--raw-dir', dir)).toMatch(
      /^asof ingest: notes\.csv: not a known price file format \(line 1 is "Ticker,Name"\); known formats: .*zipline csvdir.*QuantConnect\/Lean daily/,
    );
  });

  it('a header-only Stooq, Yahoo history or fredgraph file exits 2 naming the file', async () => {
    expect(
      await refused(
        'stooq-empty',
        'ingest',
        'prices',
        '--raw-dir',
        rawDir({ 'abc_us_d.csv': `${STOOQ}\r\n` }),
      ),
    ).toMatch(/^asof ingest: abc_us_d\.csv: the file has a header but no data rows/);
    const yahoo = rawDir({ 'yahoo_download_ABC_history.csv': 'Date,Open,High,Low,Close,Adj Close,Volume\n' });
    expect(await refused('yahoo-empty', 'ingest', 'prices', '--raw-dir', yahoo)).toMatch(
      /^asof ingest: yahoo_download_ABC_history\.csv: the file has a header but no data rows/,
    );
    const fred = rawDir({ 'fredgraph_UNRATE_vintage_2017-04.csv': 'DATE,UNRATE\n' });
    expect(await refused('fredgraph-empty', 'ingest', 'fred', '--raw-dir', fred)).toMatch(
      /^asof ingest: fredgraph_UNRATE_vintage_2017-04\.csv: the file has a header \("DATE,UNRATE"\) but no data rows/,
    );
  });
});

describe('raw files with impossible dates, absurd values or control characters', () => {
  it('2020-04-31 is an error naming file, row and field, in Stooq and fredgraph files', async () => {
    const stooq = rawDir({ 'abc_us_d.csv': [STOOQ, bar('2020-04-30'), bar('2020-04-31')].join('\n') });
    expect(await refused('stooq-date', 'ingest', 'prices', '--raw-dir', stooq)).toBe(
      'asof ingest: abc_us_d.csv line 3, field date: "2020-04-31" is not a calendar date (April 2020 has 30 days); fix or remove the row',
    );
    const fred = rawDir({
      'fredgraph_UNRATE_vintage_2020-06.csv': 'DATE,UNRATE\n2020-03-01,4.4\n2020-04-31,14.7\n',
    });
    expect(await refused('fred-date', 'ingest', 'fred', '--raw-dir', fred)).toMatch(
      /^asof ingest: fredgraph_UNRATE_vintage_2020-06\.csv: line 3, field DATE: "2020-04-31" is not a calendar date \(April 2020 has 30 days\)/,
    );
  });

  it('a membership file with 2021-02-29 or a zone-less announcement is an error naming file, row and field', async () => {
    const csv = (line: string) => {
      const dir = rawDir({ 'idx.csv': `entity_id,universe,action,effective_date,announced\n${line}\n` });
      return pipeline({
        name: 'x',
        sources: {
          embedded: { synthetic: { seed: 1, start: '2021-01-04', end: '2021-03-31', instruments: 1 } },
          prices: { membership: [join(dir, 'idx.csv')] },
        },
      });
    };
    expect(
      await refused('membership-date', 'build', csv('syn:EQ0000,idx,add,2021-02-29,2021-02-01')),
    ).toMatch(
      /^asof build: .*idx\.csv line 2, field effective_date: "2021-02-29" is not a calendar date YYYY-MM-DD \(February 2021 has 28 days\); fix or remove the row$/,
    );
    expect(
      await refused('membership-zone', 'build', csv('syn:EQ0000,idx,add,2021-02-01,2021-01-29T16:00:00')),
    ).toMatch(
      /idx\.csv line 2, field announced: "2021-01-29T16:00:00" is not a date YYYY-MM-DD or an instant with a zone \(.*no time zone/,
    );
  });

  it('a zone-less download instant in a sidecar is an error naming the sidecar and field', async () => {
    const dir = rawDir({
      'abc_us_d.csv': [STOOQ, bar('2020-04-30')].join('\n'),
      'abc_us_d.meta.json': JSON.stringify({ downloaded_at: '2020-05-01T10:00:00' }),
    });
    expect(await refused('sidecar-zone', 'ingest', 'prices', '--raw-dir', dir)).toMatch(
      /^asof ingest: abc_us_d\.meta\.json: not a valid price download sidecar: downloaded_at: "2020-05-01T10:00:00" is not an instant \(it has no time zone/,
    );
  });

  it('a finite but absurd value (1e300) is caught at ingest with file and row', async () => {
    const dir = rawDir({ 'abc_us_d.csv': [STOOQ, bar('2020-04-29'), bar('2020-04-30', '1e300')].join('\n') });
    expect(await refused('absurd', 'ingest', 'prices', '--raw-dir', dir)).toMatch(
      /^asof ingest: abc_us_d\.csv line 3, field Close: 1e\+300 is beyond ±1e15, larger than any real quantity asof ingests/,
    );
    const fred = rawDir({
      'fredgraph_GDP_vintage_2020-06.csv': 'DATE,GDP\n2020-01-01,21.5e3\n2020-04-01,1e300\n',
    });
    expect(await refused('absurd-fred', 'ingest', 'fred', '--raw-dir', fred)).toMatch(
      /^asof ingest: fredgraph_GDP_vintage_2020-06\.csv: line 3, GDP 2020-04-01: value "1e300": 1e\+300 is beyond ±1e15/,
    );
  });

  it('a symbol or series id with control characters is rejected naming the file', async () => {
    const dir = rawDir({
      'abc_us_d.csv': [STOOQ, bar('2020-04-30')].join('\n'),
      'abc_us_d.meta.json': JSON.stringify({ symbol: 'ABC\u001b[2J' }),
    });
    expect(await refused('symbol', 'ingest', 'prices', '--raw-dir', dir)).toBe(
      'asof ingest: abc_us_d.csv: symbol "ABC\\u001b[2J" (from its .meta.json sidecar) cannot name a series: it contains a control character; fix the symbol, or give "symbol" in its .meta.json sidecar',
    );
  });
});

describe('pipeline and flag checks before any work', () => {
  it('duckdb.memory_limit is validated with a fix-it message', async () => {
    const body = { name: 'x', duckdb: { memory_limit: '8 gigs' }, sources: { embedded: { real: {} } } };
    expect(await refused('memory', 'build', pipeline(body))).toMatch(
      /duckdb\.memory_limit: "8 gigs" is not a size DuckDB understands; write a size from 64MB to 1000TB like '8GB', '512MB', '2GiB', or a share of RAM like '60%'$/,
    );
    for (const bad of ['0%', '200%']) {
      const r = await refused(`memory-${bad}`, 'build', pipeline({ ...body, duckdb: { memory_limit: bad } }));
      expect(r).toMatch(new RegExp(`duckdb\\.memory_limit: ${bad} is not a share of memory`));
    }
  });

  it('--allow-partial without --catalog is a usage error', async () => {
    const r = await asof('ingest', 'fred', '--series', 'GDP', '--allow-partial');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^asof ingest: --allow-partial applies to asof ingest fred --catalog only/);
  });

  it('an invalid ASOF_SEC_USER_AGENT stops a pipeline before its other sources run, without echoing it', async () => {
    const saved = process.env.ASOF_SEC_USER_AGENT;
    process.env.ASOF_SEC_USER_AGENT = 'Rosa Quill rq-at-quillworks';
    try {
      const body = {
        name: 'ua',
        sources: { embedded: { real: { sp500: true } }, edgar: { tickers: ['AAPL'] } },
      };
      const o = out('ua');
      const r = await asof('build', pipeline(body), '--out', o.rel);
      expect(r.code).toBe(2);
      expect(cause(r)).toMatch(/^asof build: ASOF_SEC_USER_AGENT is set but contains no e-mail contact/);
      expect(r.stderr).not.toMatch(/embedded:/); // refused before the embedded source ran
      expect(r.stderr).not.toMatch(/Rosa|Quill|quillworks/);
    } finally {
      if (saved === undefined) delete process.env.ASOF_SEC_USER_AGENT;
      else process.env.ASOF_SEC_USER_AGENT = saved;
    }
  });
});
