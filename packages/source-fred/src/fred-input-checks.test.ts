import { CollectingSink } from '@asof/schema';
import { createVirtualClock, type MockFredSeries, startMockFredServer } from '@asof/test-kit';
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { generateSyntheticAlfred } from './generate-synthetic-alfred.ts';
import { ingestFredLive } from './ingest-fred-live.ts';
import { type FredRawFile, ingestFredRawFiles } from './ingest-fred-raw-dir.ts';
import { parseFredgraphCsv } from './parse-fredgraph-csv.ts';

const KEY = '0123456789abcdef0123456789abcdef';
const enc = new TextEncoder();
const syn = generateSyntheticAlfred({ seed: 3, series: ['SYNGDP'], months: 24 });
const OBS = 'fred_api_series_observations_SYNGDP_all_vintages.json';

/** The synthetic raw set with the observations response edited, plus extra files. */
function rawWith(
  edit: (json: { observations: Record<string, string>[] }) => void,
  extra: FredRawFile[] = [],
) {
  const files = syn.files.map((f) => {
    if (f.name !== OBS) return f;
    const json = JSON.parse(Buffer.from(f.bytes).toString('utf8'));
    edit(json);
    return { name: f.name, bytes: enc.encode(JSON.stringify(json)) };
  });
  return () => ingestFredRawFiles([...files, ...extra], new CollectingSink(), { mapping: syn.mapping });
}
const csv = (name: string, text: string): FredRawFile => ({ name, bytes: enc.encode(text) });

describe('FRED raw files: strict dates, plausible values, no empty files, clean ids', () => {
  it('reads the unedited synthetic set', () => {
    expect(rawWith(() => {})().series).toHaveLength(1);
  });

  it('refuses an impossible ALFRED date or realtime_start, naming the file and JSON path', () => {
    expect(
      rawWith((j) => {
        j.observations[3].realtime_start = '2001-04-31';
      }),
    ).toThrow(
      /^fred_api_series_observations_SYNGDP_all_vintages\.json: not a valid FRED series\/observations response: observations\.3\.realtime_start: "2001-04-31" is not a calendar date \(April 2001 has 30 days\)\n {2}hint: pass the JSON body/,
    );
    expect(
      rawWith((j) => {
        j.observations[0].date = '2000-02-30';
      }),
    ).toThrow(/observations\.0\.date: "2000-02-30" is not a calendar date \(February 2000 has 29 days\)/);
  });

  it('refuses an impossible fredgraph date, naming file, line and field, and a bad download date in a name', () => {
    expect(() => parseFredgraphCsv('DATE,UNRATE\n2017-01-01,4.7\n2017-02-29,4.6\n', 'u.csv')).toThrow(
      'u.csv: line 3, field DATE: "2017-02-29" is not a calendar date (February 2017 has 28 days)',
    );
    expect(
      rawWith(() => {}, [csv('fredgraph_UNRATE_vintage_2017-13.csv', 'DATE,UNRATE\n2017-01-01,4.7\n')]),
    ).toThrow(
      /^fredgraph_UNRATE_vintage_2017-13\.csv: download month: "2017-13-01" is not a calendar date \(there is no month 13\)/,
    );
  });

  it('refuses a header-only fredgraph CSV', () => {
    expect(() => parseFredgraphCsv('observation_date,UNRATE\n', 'empty.csv')).toThrow(
      /^empty\.csv: the file has a header \("observation_date,UNRATE"\) but no data rows/,
    );
  });

  it('refuses a finite but absurd value naming the file and date', () => {
    expect(
      rawWith((j) => {
        j.observations[5].value = '1e300';
      }),
    ).toThrow(
      /^FRED SYNGDP \(fred_api_series_observations_SYNGDP_all_vintages\.json\): date [\d-]+, realtime_start [\d-]+: value "1e300": 1e\+300 is beyond ±1e15/,
    );
    expect(() => parseFredgraphCsv('DATE,GDP\n2025-07-01,-3e15\n', 'g.csv')).toThrow(
      /g\.csv: line 2, GDP 2025-07-01: value "-3e15": -3000000000000000 is beyond ±1e15/,
    );
  });

  it('refuses a series id with control characters from a sidecar, naming the sidecar', () => {
    const obs = syn.files.find((f) => f.name === OBS)!;
    const files = [
      { name: 'observations.json', bytes: obs.bytes },
      {
        name: 'observations.json.meta.json',
        bytes: enc.encode(JSON.stringify({ series_id: 'GDP\u0007\u001b[31m' })),
      },
    ];
    expect(() => ingestFredRawFiles(files, new CollectingSink())).toThrow(
      'observations.json.meta.json: series_id "GDP\\u0007\\u001b[31m" is not a FRED id',
    );
  });
});

describe('FRED catalog runs: every failure counts unless --allow-partial', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  async function server() {
    const gen = generateSyntheticAlfred({ seed: 3, series: ['SYNGDP', 'SYNCPI', 'SYNUNRATE'], months: 36 });
    const read = (name: string) =>
      JSON.parse(Buffer.from(gen.files.find((f) => f.name === name)!.bytes).toString('utf8'));
    const series: MockFredSeries[] = gen.series.map((id) => {
      const meta = read(`fred_api_series_${id}.json`).seriess[0];
      return {
        id,
        title: meta.title,
        frequency_short: meta.frequency_short,
        units: meta.units,
        seasonal_adjustment_short: meta.seasonal_adjustment_short,
        releaseId: read(`fred_api_series_release_${id}.json`).releases[0].id,
        rows: read(`fred_api_series_observations_${id}_all_vintages.json`).observations,
      };
    });
    const clock = createVirtualClock();
    const s = await startMockFredServer({ apiKey: KEY, series, clock });
    cleanups.push(s.close);
    return (ids: string[], allowPartial: boolean, sink = new CollectingSink()) =>
      ingestFredLive(sink, {
        series: ids,
        mapping: gen.mapping,
        catalogRun: { allowPartial },
        client: { apiKey: KEY, baseUrl: s.baseUrl, clock, log: () => {} },
      });
  }

  it('fails on any failed series without --allow-partial, in one line naming the ids and the flag', async () => {
    const run = await server();
    const err = (await run(['SYNGDP', 'SYNCPI', 'NOSUCH'], false).catch((e: unknown) => e)) as Error & {
      code: string;
    };
    expect(err.code).toBe('FRED_CATALOG_INCOMPLETE');
    expect(err.message).toMatch(
      /^FRED catalog run: 1 of 3 series failed \(NOSUCH\); first: NOSUCH: FRED refused series NOSUCH .* or pass --allow-partial \(pipeline: sources\.fred\.allow_partial\) to build from the 2 that succeeded$/,
    );
    expect(err.message).not.toContain('\n');
    expect(err.message).not.toContain(KEY);
  });

  it('with --allow-partial, succeeds when at most half failed and lists the failures as a warning', async () => {
    const run = await server();
    const sink = new CollectingSink();
    const s = await run(['SYNGDP', 'SYNCPI', 'NOSUCH', 'SYNUNRATE'], true, sink);
    expect(s.series.map((x) => x.fredId)).toEqual(['SYNGDP', 'SYNCPI', 'SYNUNRATE']);
    expect(sink.warnings.find((w) => w.code === 'FRED_CATALOG_PARTIAL')).toEqual({
      code: 'FRED_CATALOG_PARTIAL',
      message: 'FRED catalog run with --allow-partial: 1 of 4 series failed and are missing: NOSUCH',
      count: 1,
    });
    // More than half failed: an error even with --allow-partial.
    await expect(run(['SYNGDP', 'NOSUCH', 'NOPE'], true)).rejects.toThrow(
      /^FRED catalog run: 2 of 3 series failed \(NOSUCH, NOPE\).*More than half failed, which --allow-partial does not accept/,
    );
  });

  it('with no network, stops at the first series with one line naming the host and --offline / --raw-dir', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    let attempts = 0;
    agent
      .get('https://api.stlouisfed.org')
      .intercept({ path: () => true, method: 'GET' })
      .reply(() => {
        attempts++;
        throw Object.assign(new Error('getaddrinfo ENOTFOUND api.stlouisfed.org'), { code: 'ENOTFOUND' });
      })
      .persist();
    cleanups.push(() => agent.close());
    const err = (await ingestFredLive(new CollectingSink(), {
      series: ['GDP', 'CPIAUCSL', 'UNRATE'],
      catalogRun: { allowPartial: true },
      client: { apiKey: KEY, dispatcher: agent, retries: 1, backoffBaseMs: 1, log: () => {} },
    }).catch((e: unknown) => e)) as Error & { code: string; exitCode: number };
    expect(err.code).toBe('HTTP_UNREACHABLE');
    expect(err.exitCode).toBe(1);
    expect(err.message).toMatch(
      /^FRED series GDP \(series\): cannot reach api\.stlouisfed\.org \(ENOTFOUND, 2 attempts for GET https:\/\/api\.stlouisfed\.org\/fred\/series\?series_id=GDP&file_type=json\)/,
    );
    expect(err.message).toMatch(/--offline .*ASOF_FRED_API_KEY.*--raw-dir DIR$/);
    expect(err.message).not.toContain('\n');
    expect(err.message).not.toContain(KEY);
    expect(attempts).toBe(2); // one series, two attempts: the other two were not tried
  });
});
