import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { microsToIso, zonedMicros } from '@asof/calendar';
import { CollectingSink, InputError } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestPricesRawDir } from './ingest-prices-raw-dir.ts';

// Hand-made Yahoo files of one symbol, ABC, with a 4:1 split on 2020-08-31: the core of "corporate actions
// per entity" without ../shared. Closes and volumes are Yahoo's, i.e. split-adjusted up to each download.
const root = mkdtempSync(join(tmpdir(), 'asof-entity-splits-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function dirWith(files: Record<string, string | object>): string {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir);
  for (const [f, v] of Object.entries(files))
    writeFileSync(join(dir, f), typeof v === 'string' ? v : JSON.stringify(v));
  return dir;
}

const open = (date: string) => Math.round(zonedMicros(date, '09:30', 'America/New_York') / 1e6);
/** A Yahoo v8 chart of ABC with these (date, close) bars and, when given, its events.splits. */
function chart(bars: [string, number][], splits?: [string, number][], volume = 4000): object {
  const closes = bars.map(([, c]) => c);
  return {
    chart: {
      result: [
        {
          meta: {
            symbol: 'ABC',
            currency: 'USD',
            exchangeTimezoneName: 'America/New_York',
            instrumentType: 'EQUITY',
          },
          timestamp: bars.map(([d]) => open(d)),
          ...(splits
            ? {
                events: {
                  splits: Object.fromEntries(
                    splits.map(([d, r]) => [
                      String(open(d)),
                      { date: open(d), numerator: r, denominator: 1 },
                    ]),
                  ),
                },
              }
            : {}),
          indicators: {
            quote: [
              { open: closes, high: closes, low: closes, close: closes, volume: closes.map(() => volume) },
            ],
          },
        },
      ],
      error: null,
    },
  };
}
const dl = (date: string) => ({ symbol: 'ABC', download_date: date });
// January as Yahoo serves it after the split (75 = 300 / 4), and the split window itself.
const JANUARY: [string, number][] = [
  ['2020-01-02', 75],
  ['2020-01-03', 74],
];
const SPLIT_WINDOW: [string, number][] = [
  ['2020-08-28', 124],
  ['2020-08-31', 129],
  ['2020-09-01', 134],
];

const closesOf = (sink: CollectingSink, date: string) =>
  sink.observations
    .filter((o) => o.series_id === 'px:ABC:close' && microsToIso(o.timestamp).startsWith(date))
    .map((o) => [o.value, o.available_at_basis]);
const codes = (sink: CollectingSink, code: string) =>
  sink.warnings.filter((w) => w.code === code).map((w) => w.message);

describe('corporate actions per entity (hand-made files)', () => {
  it("undoes a split listed in another file of the symbol for every file downloaded after it, whatever the file's window", () => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(
      dirWith({
        'abc_jan.json': chart(JANUARY),
        'abc_jan.meta.json': dl('2025-02-20'),
        'abc_split.json': chart(SPLIT_WINDOW, [['2020-08-31', 4]]),
        'abc_split.meta.json': dl('2025-02-20'),
        // the same January downloaded before the split: not adjusted for it, already as traded
        'abc_jan_old.json': chart(
          [
            ['2020-01-02', 300],
            ['2020-01-03', 296],
          ],
          undefined,
          1000,
        ),
        'abc_jan_old.meta.json': dl('2020-06-01'),
      }),
      sink,
    );
    // 75 x 4 from the 2025 file, 300 from the 2020 one: one value, no 4x "revision".
    expect(closesOf(sink, '2020-01-02')).toEqual([[300, 'bar_close']]);
    expect(closesOf(sink, '2020-08-28')).toEqual([[496, 'bar_close']]);
    expect(closesOf(sink, '2020-08-31')).toEqual([[129, 'bar_close']]);
    expect(r.instruments[0].revisions).toBe(0);
    expect(sink.corporateActions.map((a) => [a.ex_date, a.kind, a.value, a.source_ref])).toEqual([
      ['2020-08-31', 'split', 4, r.files.find((f) => f.file === 'abc_split.json')!.sha256],
    ]);
    expect(microsToIso(sink.corporateActions[0].available_at)).toBe('2020-08-31T13:30:00.000000Z');
    // The split file's window reaches into the 2025 January file's gap: only the gap after that window is
    // unknown, reported once on the split file; the 2020 download's own gap (to 2020-06-01) no file covers.
    const after = codes(sink, 'PRICES_SPLITS_AFTER_RANGE_UNKNOWN');
    expect(after).toHaveLength(2);
    expect(after[0]).toMatch(
      /^abc_jan_old\.json: .*downloaded 2020-06-01; no file of ABC lists the splits after 2020-01-03/,
    );
    expect(after[1]).toMatch(
      /^abc_split\.json: .*downloaded 2025-02-20; no file of ABC lists the splits after 2020-09-01/,
    );
    expect(after[1]).toContain('and 1 other file(s) of ABC');
    expect(after.some((m) => m.includes('abc_jan.json'))).toBe(false);
  });

  it('keeps the warning when no file of the symbol covers the gap', () => {
    const sink = new CollectingSink();
    ingestPricesRawDir(
      dirWith({ 'abc_jan.json': chart(JANUARY), 'abc_jan.meta.json': dl('2025-02-20') }),
      sink,
    );
    expect(closesOf(sink, '2020-01-02')).toEqual([[75, 'bar_close']]);
    expect(codes(sink, 'PRICES_SPLITS_AFTER_RANGE_UNKNOWN')).toEqual([
      expect.stringMatching(
        /^abc_jan\.json: .*downloaded 2025-02-20; no file of ABC lists the splits after 2020-01-03/,
      ),
    ]);
  });

  it('refuses two files that give one ex-date different ratios, naming both', () => {
    const dir = dirWith({
      'abc_split.json': chart(SPLIT_WINDOW, [['2020-08-31', 4]]),
      'abc_split.meta.json': dl('2025-02-20'),
      'abc_split_other.json': chart(SPLIT_WINDOW, [['2020-08-31', 2]]),
      'abc_split_other.meta.json': dl('2025-03-01'),
    });
    let err: unknown;
    try {
      ingestPricesRawDir(dir, new CollectingSink());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('CONFLICTING_SPLITS');
    expect((err as Error).message).toMatch(
      /^ABC split on 2020-08-31: abc_split\.json gives ratio 4 but abc_split_other\.json gives ratio 2; remove the wrong file/,
    );
    expect((err as Error).message.split('\n')).toHaveLength(1);
    // Two sidecars of the symbol disagreeing: the same, naming both sidecars.
    const sidecars = dirWith({
      'abc_jan.json': chart(JANUARY),
      'abc_jan.meta.json': { ...dl('2025-02-20'), splits: [{ ex_date: '2020-08-31', ratio: 4 }] },
      'abc_feb.json': chart([['2020-02-03', 80]]),
      'abc_feb.meta.json': { ...dl('2025-02-21'), splits: [{ ex_date: '2020-08-31', ratio: 5 }] },
    });
    expect(() => ingestPricesRawDir(sidecars, new CollectingSink())).toThrow(
      /^ABC split on 2020-08-31: abc_jan\.meta\.json gives ratio 4 but abc_feb\.meta\.json gives ratio 5; fix one of them$/,
    );
  });

  it("lets a sidecar's split list win over the files (and settle their conflict), with a warning", () => {
    const sink = new CollectingSink();
    ingestPricesRawDir(
      dirWith({
        'abc_jan.json': chart(JANUARY),
        'abc_jan.meta.json': { ...dl('2025-02-20'), splits: [{ ex_date: '2020-08-31', ratio: 4 }] },
        'abc_split.json': chart(SPLIT_WINDOW, [['2020-08-31', 2]]),
        'abc_split.meta.json': dl('2025-02-20'),
        'abc_split_other.json': chart(SPLIT_WINDOW, [['2020-08-31', 3]]),
        'abc_split_other.meta.json': dl('2025-03-01'),
      }),
      sink,
    );
    expect(closesOf(sink, '2020-01-02')).toEqual([[300, 'bar_close']]);
    expect(sink.corporateActions.map((a) => [a.ex_date, a.value, a.source_ref])).toEqual([
      ['2020-08-31', 4, 'pipeline:known_splits'],
    ]);
    expect(codes(sink, 'PRICES_SPLIT_OVERRIDDEN')).toEqual([
      'abc_split.json: lists a split of ratio 2 on 2020-08-31 but abc_jan.meta.json gives 4; used 4 for every download of ABC',
      'abc_split_other.json: lists a split of ratio 3 on 2020-08-31 but abc_jan.meta.json gives 4; used 4 for every download of ABC',
    ]);
    // The pipeline's list is taken as complete: nothing is unknown.
    expect(codes(sink, 'PRICES_SPLITS_AFTER_RANGE_UNKNOWN')).toEqual([]);
  });

  it('dates a file without a download date after the split its closes show it is adjusted for', () => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(
      dirWith({
        'abc_jan.json': chart(JANUARY),
        'abc_jan.meta.json': dl('2025-02-20'),
        'abc_split.json': chart(SPLIT_WINDOW, [['2020-08-31', 4]]),
        'abc_split.meta.json': dl('2025-02-20'),
        // a Yahoo v7 history CSV with no recorded date: its last bar is 2020-01-02, but its 75 is post-split
        'yahoo_download_ABC_2020-01-02_history.csv':
          'Date,Open,High,Low,Close,Adj Close,Volume\n2020-01-02,75,75,75,75,73.1,4000',
      }),
      sink,
    );
    const csv = r.files.find((f) => f.file.startsWith('yahoo_download_ABC'))!;
    expect([csv.downloadedAtSource, csv.downloadedAt]).toEqual([
      'split_evidence',
      '2020-08-31T13:30:00.000000Z',
    ]);
    expect(codes(sink, 'PRICES_DOWNLOAD_TIME_INFERRED')).toEqual([
      expect.stringMatching(
        /^yahoo_download_ABC_2020-01-02_history\.csv: .* abc_jan\.json \(1 date\(s\)\) only with the 4:1 split of 2020-08-31 undone/,
      ),
    ]);
    expect(codes(sink, 'PRICES_DOWNLOAD_TIME_ASSUMED')).toEqual([]);
    expect(closesOf(sink, '2020-01-02')).toEqual([[300, 'bar_close']]);
    expect(r.instruments[0].revisions).toBe(0);
  });

  it('leaves the assumed date alone when the closes match no candidate', () => {
    const sink = new CollectingSink();
    const r = ingestPricesRawDir(
      dirWith({
        'abc_jan.json': chart(JANUARY),
        'abc_jan.meta.json': dl('2025-02-20'),
        'abc_split.json': chart(SPLIT_WINDOW, [['2020-08-31', 4]]),
        'abc_split.meta.json': dl('2025-02-20'),
        // neither 300 (before the split) nor 75 (after): no inference, the vintage rules decide
        'yahoo_download_ABC_2020-01-02_history.csv':
          'Date,Open,High,Low,Close,Adj Close,Volume\n2020-01-02,150,150,150,150,150,1000',
      }),
      sink,
    );
    const csv = r.files.find((f) => f.file.startsWith('yahoo_download_ABC'))!;
    expect(csv.downloadedAtSource).toBe('last_bar');
    expect(codes(sink, 'PRICES_DOWNLOAD_TIME_ASSUMED')).toHaveLength(1);
    expect(codes(sink, 'PRICES_DOWNLOAD_TIME_INFERRED')).toEqual([]);
  });
});
