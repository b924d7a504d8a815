import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { endOfDayMicros, zonedMicros } from '@asof/calendar';
import { asOfView, CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { ingestRtdsmRawDir, ingestRtdsmRawFiles } from './ingest-rtdsm-raw-dir.ts';
import { parseRtdsmCsv } from './parse-rtdsm-csv.ts';
import { parseVintageColumn, rtdsmVintageAvailableAt } from './rtdsm-dates.ts';

const dir = (p: string) => new URL(`../fixtures/${p}`, import.meta.url).pathname;
const ET = 'America/New_York';
const at = (column: string) => rtdsmVintageAvailableAt(parseVintageColumn(column)!);
const q = (end: string) => endOfDayMicros(end, ET);

describe('ingestRtdsmRawDir on hand-made files', () => {
  const sink = new CollectingSink();
  const summary = ingestRtdsmRawDir(dir('rtdsm'), sink);

  it('lists each file as an input and declares rtdsm:<VARIABLE> series', () => {
    expect(sink.inputs.map((i) => [i.source, i.key])).toEqual([
      ['rtdsm', 'routput_small.csv'],
      ['rtdsm', 'ruc_small.csv'],
    ]);
    expect(
      sink.series.map((s) => [s.series_id, s.frequency, s.detail_category, s.source, s.source_key]),
    ).toEqual([
      ['rtdsm:ROUTPUT', 'Q', 'Gdp', 'rtdsm', 'ROUTPUT'],
      ['rtdsm:RUC', 'M', 'Labor', 'rtdsm', 'RUC'],
    ]);
    expect(summary.series.map((s) => s.vintages)).toEqual([3, 2]);
  });

  it('writes first values, revisions (a base-year change too) and withdrawals at each vintage’s instant', () => {
    const rows = sink.observations
      .filter((o) => o.series_id === 'rtdsm:ROUTPUT')
      .map((o) => [o.timestamp, o.available_at, o.value, o.source_ref]);
    expect(rows).toEqual([
      [q('1965-06-30'), at('ROUTPUT65Q4'), 610.2, 'rtdsm:ROUTPUT65Q4'],
      [q('1965-09-30'), at('ROUTPUT65Q4'), 615, 'rtdsm:ROUTPUT65Q4'],
      [q('1965-09-30'), at('ROUTPUT66Q1'), 616.1, 'rtdsm:ROUTPUT66Q1'],
      [q('1965-09-30'), at('ROUTPUT66Q2'), 1616.1, 'rtdsm:ROUTPUT66Q2'],
      [q('1965-12-31'), at('ROUTPUT66Q1'), 620.5, 'rtdsm:ROUTPUT66Q1'],
      [q('1965-12-31'), at('ROUTPUT66Q2'), 1630, 'rtdsm:ROUTPUT66Q2'],
      [q('1966-03-31'), at('ROUTPUT66Q2'), 1640.5, 'rtdsm:ROUTPUT66Q2'],
    ]);
    expect(sink.observations[0]).toMatchObject({
      available_at_basis: 'vintage',
      period_start: zonedMicros('1965-04-01', '00:00', ET),
    });
    expect(sink.withdrawals.map((w) => [w.series_id, w.timestamp, w.available_at])).toEqual([
      ['rtdsm:ROUTPUT', q('1965-06-30'), at('ROUTPUT66Q2')],
    ]);
  });

  it('gives, at each vintage’s available_at, an as-of view equal to that column', () => {
    for (const name of ['routput_small.csv', 'ruc_small.csv']) {
      const parsed = parseRtdsmCsv(readFileSync(join(dir('rtdsm'), name), 'utf8'), name);
      parsed.vintages.forEach((v, j) => {
        const want = new Map<number, number>();
        for (const r of parsed.rows) {
          const c = r.cells[j];
          if (c !== undefined && 'value' in c) want.set(r.period.timestamp, c.value);
        }
        expect(asOfView(sink, rtdsmVintageAvailableAt(v)).get(`rtdsm:${v.variable}`)).toEqual(want);
      });
    }
  });

  it('accounts for every cell that is neither empty nor #N/A', () => {
    expect(sink.accounting).toEqual([
      {
        source: 'rtdsm',
        file: 'routput_small.csv',
        record: 'cell',
        read: 8,
        mapped: 8,
        dropped: {},
        mappable: 8,
      },
      {
        source: 'rtdsm',
        file: 'ruc_small.csv',
        record: 'cell',
        read: 7,
        mapped: 7,
        dropped: {},
        mappable: 7,
      },
    ]);
  });
});

describe('monthly vintages, unplaced variables and bad values', () => {
  it('counts unmapped_series and bad_value, and dates monthly vintages by their month', () => {
    const sink = new CollectingSink();
    const s = ingestRtdsmRawDir(dir('monthly'), sink);
    expect(s.unmapped).toEqual(['ZZZ']);
    expect(sink.accounting).toEqual([
      {
        source: 'rtdsm',
        file: 'pcpi_small.csv',
        record: 'cell',
        read: 8,
        mapped: 4,
        dropped: { bad_value: 1, unmapped_series: 3 },
        mappable: 5,
      },
    ]);
    expect(sink.observations.map((o) => o.available_at)).toEqual([
      at('PCPI98M11'),
      at('PCPI98M11'),
      at('PCPI98M12'),
    ]);
    expect(sink.warnings.find((w) => w.code === 'RTDSM_BAD_VALUES')?.message).toMatch(
      /pcpi_small\.csv line 4, PCPI98M12: "bad"/,
    );
    expect(sink.warnings.find((w) => w.code === 'RTDSM_UNMAPPED_SERIES')?.message).toMatch(/ZZZ/);
  });
});

describe('refusals', () => {
  const csv = (text: string) => new TextEncoder().encode(text);
  it('refuses an .xlsx workbook with the hint to export it as CSV', () => {
    let err: unknown;
    try {
      ingestRtdsmRawFiles([{ name: 'ROUTPUTQvQd.xlsx', bytes: csv('PK') }], new CollectingSink());
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'RTDSM_XLSX', exitCode: 2, context: { file: 'ROUTPUTQvQd.xlsx' } });
    expect((err as Error).message).toMatch(/^ROUTPUTQvQd\.xlsx: .*save its data sheet as CSV/);
  });

  it('refuses one vintage in two files, and one variable at two frequencies', () => {
    const a = { name: 'a.csv', bytes: csv('DATE,RUC65Q4\n1965:01,4\n') };
    expect(() => ingestRtdsmRawFiles([a, { name: 'b.csv', bytes: a.bytes }], new CollectingSink())).toThrow(
      expect.objectContaining({ code: 'RTDSM_DUPLICATE_VINTAGE' }),
    );
    expect(() =>
      ingestRtdsmRawFiles(
        [a, { name: 'b.csv', bytes: csv('DATE,RUC66Q1\n1965:Q1,4\n') }],
        new CollectingSink(),
      ),
    ).toThrow(expect.objectContaining({ code: 'RTDSM_FREQUENCY_CLASH' }));
  });

  it('merges a variable’s vintages across files in vintage order', () => {
    const sink = new CollectingSink();
    ingestRtdsmRawFiles(
      [
        { name: 'late.csv', bytes: csv('DATE,RUC66Q1\n1965:01,4.5\n') },
        { name: 'early.csv', bytes: csv('DATE,RUC65Q4\n1965:01,4\n') },
      ],
      sink,
    );
    expect(sink.observations.map((o) => [o.value, o.source_ref])).toEqual([
      [4, 'rtdsm:RUC65Q4'],
      [4.5, 'rtdsm:RUC66Q1'],
    ]);
  });
});
