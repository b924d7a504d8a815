// Acceptance tests on the real RTDSM files of ../shared/fixtures/real-archive/macro (PROVENANCE.md §3): real
// GDP (ROUTPUT) and the unemployment rate (RUC), vintages 1965Q4…2024Q1, exported to CSV from the Philadelphia
// Fed's workbooks (trailing spaces, "#N/A", thousands separators). Read where they are; skipped without ../shared.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endOfDayMicros } from '@asof/calendar';
import { asOfView, CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { ingestRtdsmRawFiles } from './ingest-rtdsm-raw-dir.ts';
import { parseVintageColumn, rtdsmVintageAvailableAt } from './rtdsm-dates.ts';

const macro = fileURLToPath(new URL('../../../../shared/fixtures/real-archive/macro', import.meta.url));
const FILES = {
  ROUTPUT: 'philfed_rtdsm_ROUTPUT_real_gdp_quarterly_vintages_65Q4-24Q1.csv',
  RUC: 'philfed_rtdsm_RUC_unemployment_rate_monthly_obs_quarterly_vintages_65Q4-24Q1.csv',
};
const has = Object.values(FILES).every((f) => existsSync(join(macro, f)));
const ET = 'America/New_York';

/** The file read independently of the package: vintage column → period end → value. */
function readIndependently(name: string) {
  const split = (line: string) =>
    [...line.matchAll(/("([^"]*)"|[^,]*)(,|$)/g)].map((m) => m[2] ?? m[1]).slice(0, -1);
  const lines = readFileSync(join(macro, name), 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const header = split(lines[0]);
  const columns = new Map<string, Map<number, number>>(header.slice(1).map((h) => [h, new Map()]));
  let nonEmpty = 0;
  for (const line of lines.slice(1)) {
    const cells = split(line);
    const [y, p] = cells[0].split(':');
    const end = p.startsWith('Q')
      ? new Date(Date.UTC(Number(y), 3 * Number(p.slice(1)), 0))
      : new Date(Date.UTC(Number(y), Number(p), 0));
    const ts = endOfDayMicros(end.toISOString().slice(0, 10), ET);
    header.slice(1).forEach((h, j) => {
      const text = cells[j + 1].trim();
      if (text === '' || text === '#N/A') return;
      nonEmpty++;
      columns.get(h)!.set(ts, Number(text.replaceAll(',', '')));
    });
  }
  return { columns, nonEmpty };
}

describe.skipIf(!has)('RTDSM real files (needs ../shared/fixtures/real-archive/macro)', () => {
  const sink = new CollectingSink();
  const names = Object.values(FILES);
  const summary = ingestRtdsmRawFiles(
    names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(macro, name))) })),
    sink,
  );

  it('reads both files: 234 quarterly vintages each, ROUTPUT quarterly and RUC monthly', () => {
    expect(summary.series.map((s) => [s.seriesId, s.frequency, s.vintages])).toEqual([
      ['rtdsm:ROUTPUT', 'Q', 234],
      ['rtdsm:RUC', 'M', 234],
    ]);
    expect(summary.unmapped).toEqual([]);
  });

  it('gives, at each vintage’s available_at, an as-of view equal to that vintage’s column, exactly', () => {
    let compared = 0;
    for (const [variable, name] of Object.entries(FILES)) {
      const file = readIndependently(name);
      expect(file.columns.size).toBe(234);
      const rows = [
        ...sink.observations.filter((o) => o.series_id === `rtdsm:${variable}`),
        ...sink.withdrawals
          .filter((w) => w.series_id === `rtdsm:${variable}`)
          .map((w) => ({ ...w, value: null })),
      ].sort((a, b) => a.available_at - b.available_at);
      const view = new Map<number, number | null>();
      let next = 0;
      const mismatches: string[] = [];
      for (const [column, want] of file.columns) {
        const at = rtdsmVintageAvailableAt(parseVintageColumn(column)!);
        for (; next < rows.length && rows[next].available_at <= at; next++)
          view.set(rows[next].timestamp, rows[next].value);
        const got = new Map([...view].filter(([, v]) => v !== null));
        for (const [ts, v] of want)
          if (got.get(ts) !== v) mismatches.push(`${column} ${ts}: file ${v}, view ${got.get(ts)}`);
        for (const [ts, v] of got)
          if (!want.has(ts)) mismatches.push(`${column} ${ts}: not in file, view ${v}`);
        compared += want.size;
      }
      expect(mismatches.slice(0, 10)).toEqual([]);
    }
    expect(compared).toBe(37_137 + 7_135 + 131_856);
  });

  it('accounts for every value cell (neither empty nor #N/A) of each file', () => {
    expect(sink.accounting.map((a) => [a.file, a.read, a.mapped, a.dropped, a.mappable])).toEqual(
      names.map((n) => {
        const c = readIndependently(n).nonEmpty;
        return [n, c, c, {}, c];
      }),
    );
    expect(sink.accounting.every((a) => a.source === 'rtdsm' && a.record === 'cell')).toBe(true);
  });

  it('quirk: values carry a trailing space ("306.4 ") and read as the number', () => {
    const view = asOfView(sink, rtdsmVintageAvailableAt(parseVintageColumn('ROUTPUT65Q4')!));
    expect(view.get('rtdsm:ROUTPUT')?.get(endOfDayMicros('1947-03-31', ET))).toBe(306.4);
  });

  it('quirk: #N/A is not published — RUC before 1948, and 2023Q4 GDP until the 24Q1 vintage', () => {
    const ruc65 = asOfView(sink, rtdsmVintageAvailableAt(parseVintageColumn('RUC65Q4')!)).get('rtdsm:RUC')!;
    expect(ruc65.has(endOfDayMicros('1947-01-31', ET))).toBe(false);
    const q4 = endOfDayMicros('2023-12-31', ET);
    expect(
      asOfView(sink, rtdsmVintageAvailableAt(parseVintageColumn('ROUTPUT23Q4')!))
        .get('rtdsm:ROUTPUT')
        ?.has(q4),
    ).toBe(false);
    // ROUTPUT24Q1 writes it quoted with a thousands separator: "22,672.9 ".
    expect(
      asOfView(sink, rtdsmVintageAvailableAt(parseVintageColumn('ROUTPUT24Q1')!))
        .get('rtdsm:ROUTPUT')
        ?.get(q4),
    ).toBe(22672.9);
  });

  it('quirk: base-year changes are revisions of the one series, not a new series', () => {
    const q1 = sink.observations.filter(
      (o) => o.series_id === 'rtdsm:ROUTPUT' && o.timestamp === endOfDayMicros('1947-03-31', ET),
    );
    expect(q1[0].value).toBe(306.4);
    expect(q1.length).toBeGreaterThan(5);
    for (let i = 1; i < q1.length; i++) expect(q1[i].value).not.toBe(q1[i - 1].value);
  });
});
