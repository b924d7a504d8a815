import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endOfDayMicros } from '@asof/calendar';
import { asOfView, CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { fredmdPeriod, fredmdVintageAvailableAt } from './fredmd-dates.ts';
import { fredmdSeriesId } from './fredmd-series.ts';
import { ingestFredmdRawDir, ingestFredmdRawFiles } from './ingest-fredmd-raw-dir.ts';
import { parseFredmdCsv } from './parse-fredmd-csv.ts';

const dir = (p: string) => new URL(`../fixtures/${p}`, import.meta.url).pathname;
const ET = 'America/New_York';
const A = fredmdVintageAvailableAt('1999-08');
const B = fredmdVintageAvailableAt('1999-09');
const month = (d: string) => fredmdPeriod(d, 'M')!.timestamp;

describe('ingestFredmdRawDir on hand-made vintages (old and current format)', () => {
  const sink = new CollectingSink();
  const summary = ingestFredmdRawDir(dir('fredmd'), sink);

  it('lists each file as an input with its hash, and declares the placed series', () => {
    expect(sink.inputs.map((i) => [i.source, i.key, i.bytes])).toEqual([
      [
        'fredmd',
        'fredmd_vintage_1999-08.csv',
        readFileSync(join(dir('fredmd'), 'fredmd_vintage_1999-08.csv')).length,
      ],
      [
        'fredmd',
        'fredmd_vintage_1999-09.csv',
        readFileSync(join(dir('fredmd'), 'fredmd_vintage_1999-09.csv')).length,
      ],
    ]);
    expect(sink.inputs[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sink.series.map((s) => [s.series_id, s.detail_category, s.frequency, s.universe_kind])).toEqual([
      ['fredmd:INDPRO', 'Activity', 'M', 'point_in_time'],
      ['fredmd:RETAILx', 'Spending', 'M', 'point_in_time'],
      ['fredmd:UNRATE', 'Labor', 'M', 'point_in_time'],
    ]);
    expect(summary.vintages).toEqual(['fredmd:1999-08', 'fredmd:1999-09']);
  });

  it('keeps the Transform: code as series metadata (in the title), never applied to values', () => {
    const indpro = sink.series.find((s) => s.series_id === 'fredmd:INDPRO')!;
    expect(indpro.title).toMatch(/\(FRED-MD INDPRO; tcode 5 = Δlog x, not applied\)$/);
    expect(indpro.source).toBe('fredmd');
    expect(indpro.source_key).toBe('INDPRO');
    expect(sink.observations.find((o) => o.series_id === 'fredmd:INDPRO')!.value).toBe(10.5);
  });

  it('stamps periods like source-fred (end of month ET, period_start the first) at the vintage instant', () => {
    const first = sink.observations.find((o) => o.series_id === 'fredmd:INDPRO')!;
    expect(first).toEqual({
      series_id: 'fredmd:INDPRO',
      timestamp: endOfDayMicros('1959-01-31', ET),
      period_start: fredmdPeriod('1/1/1959', 'M')!.period_start,
      available_at: A,
      value: 10.5,
      available_at_basis: 'vintage',
      source_ref: 'fredmd:1999-08',
    });
  });

  it('writes a revision as a new row, and no row for an unchanged value published again', () => {
    const indpro = sink.observations.filter((o) => o.series_id === 'fredmd:INDPRO');
    expect(indpro.map((o) => [o.timestamp, o.available_at, o.value])).toEqual([
      [month('1/1/1959'), A, 10.5],
      [month('2/1/1959'), A, 10.6],
      [month('2/1/1959'), B, 10.65],
      [month('3/1/1959'), A, 10.7],
      [month('4/1/1959'), A, 10.8],
      [month('5/1/1959'), B, 10.9],
    ]);
    expect(summary.series.find((s) => s.seriesId === 'fredmd:INDPRO')).toMatchObject({
      observations: 6,
      revisions: 1,
    });
  });

  it('does not publish blank cells (the last months of late series), and adds them once a vintage has them', () => {
    const retail = sink.observations.filter((o) => o.series_id === 'fredmd:RETAILx');
    expect(retail.map((o) => [o.timestamp, o.available_at])).toEqual([
      [month('1/1/1959'), A],
      [month('2/1/1959'), A],
      [month('3/1/1959'), A],
      [month('4/1/1959'), B],
    ]);
  });

  it('withdraws a value a later vintage no longer holds (decision 0007)', () => {
    expect(sink.withdrawals).toEqual([
      {
        series_id: 'fredmd:UNRATE',
        timestamp: month('1/1/1959'),
        period_start: fredmdPeriod('1/1/1959', 'M')!.period_start,
        available_at: B,
        available_at_basis: 'vintage',
        source_ref: 'fredmd:1999-09',
      },
    ]);
    expect(sink.warnings.map((w) => w.code)).toContain('FREDMD_VALUES_WITHDRAWN');
  });

  it('gives an as-of view at each vintage equal to that file, value for value', () => {
    for (const [name, at] of [
      ['fredmd_vintage_1999-08.csv', A],
      ['fredmd_vintage_1999-09.csv', B],
    ] as const) {
      const parsed = parseFredmdCsv(readFileSync(join(dir('fredmd'), name), 'utf8'), name);
      const view = asOfView(sink, at);
      for (const [j, col] of parsed.columns.entries()) {
        const id = fredmdSeriesId('fredmd', col.mnemonic);
        if (!sink.series.some((s) => s.series_id === id)) continue;
        const want = new Map<number, number>();
        for (const r of parsed.rows) {
          const c = r.cells[j];
          if (c !== undefined && 'value' in c) want.set(r.period.timestamp, c.value);
        }
        expect(view.get(id) ?? new Map()).toEqual(want);
      }
    }
    expect(asOfView(sink, A - 1).size).toBe(0);
  });

  it('accounts for every non-blank value cell: mapped, unmapped_series (out of scope) or bad_value', () => {
    expect(sink.accounting).toEqual([
      {
        source: 'fredmd',
        file: 'fredmd_vintage_1999-08.csv',
        record: 'cell',
        read: 15,
        mapped: 11,
        dropped: { unmapped_series: 4 },
        mappable: 11,
      },
      {
        source: 'fredmd',
        file: 'fredmd_vintage_1999-09.csv',
        record: 'cell',
        read: 20,
        mapped: 13,
        dropped: { unmapped_series: 7 },
        mappable: 13,
      },
    ]);
    expect(summary.unmapped).toEqual(['fredmd:NEWSERIESx', 'fredmd:S&P 500']);
    expect(sink.warnings.find((w) => w.code === 'FREDMD_UNMAPPED_SERIES')?.message).toMatch(/S&P 500/);
  });

  it('warns that pre-2015 vintages are reconstructions', () => {
    expect(sink.warnings.find((w) => w.code === 'FREDMD_RECONSTRUCTED_VINTAGES')?.count).toBe(2);
  });
});

describe('FRED-QD', () => {
  it('reads quarterly files as fredqd:<mnemonic> at frequency Q, placed only where a quarterly unit exists', () => {
    const sink = new CollectingSink();
    ingestFredmdRawDir(dir('fredqd'), sink);
    expect(sink.series.map((s) => [s.series_id, s.frequency, s.detail_category])).toEqual([
      ['fredqd:GDPC1', 'Q', 'Gdp'],
    ]);
    const gdp = sink.observations.map((o) => [o.timestamp, o.period_start, o.value]);
    expect(gdp[0]).toEqual([
      endOfDayMicros('2019-03-31', ET),
      fredmdPeriod('1/1/2019', 'M')!.period_start,
      1000.5,
    ]);
    expect(sink.series[0].title).toMatch(/FRED-QD GDPC1; tcode 5/);
    expect(sink.accounting).toEqual([
      expect.objectContaining({ source: 'fredmd', read: 11, mapped: 4, dropped: { unmapped_series: 7 } }),
    ]);
  });
});

describe('vintage from the file name, or from the pipeline for one file', () => {
  it('refuses a file whose name states no vintage, naming it, with the fix', () => {
    const sink = new CollectingSink();
    let err: unknown;
    try {
      ingestFredmdRawDir(dir('current'), sink);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'FREDMD_NO_VINTAGE', exitCode: 2, context: { file: 'current.csv' } });
    expect((err as Error).message).toMatch(/^current\.csv: .*Rename the file.*"vintage": "2024-03"/);
  });

  it('takes the vintage override for a single file', () => {
    const sink = new CollectingSink();
    const s = ingestFredmdRawDir(dir('current'), sink, { vintage: '1999-09' });
    expect(s.vintages).toEqual(['fredmd:1999-09']);
    expect(sink.observations.every((o) => o.available_at === B)).toBe(true);
  });

  it('refuses the override when the folder holds several files', () => {
    expect(() => ingestFredmdRawDir(dir('fredmd'), new CollectingSink(), { vintage: '1999-09' })).toThrow(
      expect.objectContaining({ code: 'FREDMD_VINTAGE_NEEDS_ONE_FILE' }),
    );
  });

  it('refuses two files of one vintage', () => {
    const bytes = readFileSync(join(dir('fredmd'), 'fredmd_vintage_1999-08.csv'));
    expect(() =>
      ingestFredmdRawFiles(
        [
          { name: '1999-08.csv', bytes },
          { name: 'copy_1999-08.csv', bytes },
        ],
        new CollectingSink(),
      ),
    ).toThrow(expect.objectContaining({ code: 'FREDMD_DUPLICATE_VINTAGE' }));
  });

  it('skips files that are not FRED-MD CSVs with a warning; a folder with only a workbook is refused with the fix', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'fredmd-'));
    writeFileSync(join(tmp, 'README.txt'), 'notes');
    writeFileSync(join(tmp, '2020-01.csv'), 'sasdate,INDPRO\nTransform:,5\n12/1/2019,1.25\n');
    const sink = new CollectingSink();
    const s = ingestFredmdRawDir(tmp, sink);
    expect(s.skipped).toEqual(['README.txt']);
    expect(sink.warnings.find((w) => w.code === 'FREDMD_SKIPPED_FILES')?.message).toMatch(/README\.txt/);
    expect(sink.inputs.map((i) => i.key)).toEqual(['2020-01.csv']);
    // A mixed folder (an RTDSM table, a workbook beside the vintages): the vintages are read, the rest named.
    writeFileSync(join(tmp, '2020-02.xlsx'), 'PK');
    writeFileSync(join(tmp, 'routput.csv'), 'DATE,ROUTPUT65Q4\n1947:Q1,306.4\n');
    const mixed = new CollectingSink();
    expect(ingestFredmdRawDir(tmp, mixed).skipped).toEqual(['2020-02.xlsx', 'README.txt', 'routput.csv']);
    expect(mixed.inputs.map((i) => i.key)).toEqual(['2020-01.csv']);
    const lone = mkdtempSync(join(tmpdir(), 'fredmd-'));
    writeFileSync(join(lone, '2020-02.xlsx'), 'PK');
    expect(() => ingestFredmdRawDir(lone, new CollectingSink())).toThrow(
      expect.objectContaining({
        code: 'FREDMD_XLSX',
        message: expect.stringMatching(/^2020-02\.xlsx: .*save the sheet as CSV/),
      }),
    );
    rmSync(lone, { recursive: true });
  });

  it('drops a cell that is not a number as bad_value, naming file, line and column in a warning', () => {
    const sink = new CollectingSink();
    ingestFredmdRawFiles(
      [
        {
          name: '2020-01.csv',
          bytes: new TextEncoder().encode('sasdate,INDPRO\nTransform:,5\n11/1/2019,1.5\n12/1/2019,n/a\n'),
        },
      ],
      sink,
    );
    expect(sink.accounting[0]).toMatchObject({ read: 2, mapped: 1, dropped: { bad_value: 1 }, mappable: 2 });
    expect(sink.warnings.find((w) => w.code === 'FREDMD_BAD_VALUES')?.message).toMatch(
      /2020-01\.csv line 4, INDPRO: "n\/a"/,
    );
  });

  it('refuses a raw_dir it cannot read', () => {
    expect(() => ingestFredmdRawDir('/nonexistent/fredmd', new CollectingSink())).toThrow(
      expect.objectContaining({ code: 'FREDMD_RAW_DIR' }),
    );
  });
});

describe('series ids', () => {
  it('keep FRED ids and turn the characters ids do not allow into _', () => {
    expect(fredmdSeriesId('fredmd', 'INDPRO')).toBe('fredmd:INDPRO');
    expect(fredmdSeriesId('fredmd', 'S&P 500')).toBe('fredmd:S_P_500');
    expect(fredmdSeriesId('fredmd', 'S&P: indust')).toBe('fredmd:S_P_indust');
    expect(fredmdSeriesId('fredqd', 'GDPC1')).toBe('fredqd:GDPC1');
  });
});
