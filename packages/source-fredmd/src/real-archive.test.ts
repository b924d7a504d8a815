// Acceptance tests on the real FRED-MD vintages of ../shared/fixtures/real-archive/macro (PROVENANCE.md §3):
// 22 files, 1999-08 … 2020-07, the pre-2015 ones in the historical fixed-width format. They are read where
// they are (never copied into the repository); without ../shared the suite is skipped.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endOfDayMicros } from '@asof/calendar';
import { asOfView, CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { fredmdVintageAvailableAt } from './fredmd-dates.ts';
import { fredmdSeriesId } from './fredmd-series.ts';
import { ingestFredmdRawFiles } from './ingest-fredmd-raw-dir.ts';

const macro = fileURLToPath(new URL('../../../../shared/fixtures/real-archive/macro', import.meta.url));
const has = existsSync(macro);
const names = has
  ? readdirSync(macro)
      .filter((n) => /^fredmd_vintage_\d{4}-\d{2}\.csv$/.test(n))
      .sort()
  : [];

/** The file read independently of the package: header, rows by date, cells trimmed, `Number` of each. */
function readIndependently(name: string) {
  const lines = readFileSync(join(macro, name), 'utf8').split('\n');
  const header = lines[0].split(',');
  const cells = new Map<string, Map<number, number>>();
  let nonEmpty = 0;
  for (const line of lines.slice(1)) {
    const parts = line.split(',');
    if (parts[0] === 'Transform:' || parts.every((p) => p.trim() === '')) continue;
    const [m, , y] = parts[0].split('/').map(Number);
    const lastDay = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const ts = endOfDayMicros(lastDay, 'America/New_York');
    header.slice(1).forEach((h, j) => {
      const text = (parts[j + 1] ?? '').trim();
      if (text === '') return;
      nonEmpty++;
      let col = cells.get(h);
      if (col === undefined) {
        col = new Map();
        cells.set(h, col);
      }
      col.set(ts, Number(text));
    });
  }
  return { header: header.slice(1), cells, nonEmpty };
}

describe.skipIf(!has)('FRED-MD real vintages (needs ../shared/fixtures/real-archive/macro)', () => {
  const sink = new CollectingSink();
  const summary = ingestFredmdRawFiles(
    names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(macro, name))) })),
    sink,
  );
  const placed = new Set(sink.series.map((s) => s.series_id));

  it('reads all 22 vintages, old and current format', () => {
    expect(names.length).toBe(22);
    expect(summary.vintages[0]).toBe('fredmd:1999-08');
    expect(summary.vintages[21]).toBe('fredmd:2020-07');
    expect(sink.inputs.length).toBe(22);
    expect(placed.has('fredmd:INDPRO')).toBe(true);
    expect(placed.has('fredmd:RETAILx')).toBe(true);
    expect(placed.has('fredmd:CLAIMSx')).toBe(true);
  });

  it('gives, at each vintage’s available_at, an as-of view equal to that file for every (series, date), exactly', () => {
    // The as-of view, rolled forward vintage by vintage: rows in available_at order, the latest per key wins.
    const rows = [
      ...sink.observations.map((o) => ({
        id: o.series_id,
        ts: o.timestamp,
        at: o.available_at,
        value: o.value,
      })),
      ...sink.withdrawals.map((w) => ({ id: w.series_id, ts: w.timestamp, at: w.available_at, value: null })),
    ].sort((a, b) => a.at - b.at);
    const view = new Map<string, Map<number, number | null>>();
    let next = 0;
    let compared = 0;
    const mismatches: string[] = [];
    /** Per series, the view as the last vintage holding its column left it. */
    const lastHeld = new Map<string, string>();
    const snapshot = (id: string) => JSON.stringify([...(view.get(id) ?? [])]);
    for (const name of names) {
      const at = fredmdVintageAvailableAt(/(\d{4}-\d{2})/.exec(name)![1]);
      for (; next < rows.length && rows[next].at <= at; next++) {
        const r = rows[next];
        if (!view.has(r.id)) view.set(r.id, new Map());
        view.get(r.id)!.set(r.ts, r.value);
      }
      const file = readIndependently(name);
      const held = new Set<string>();
      for (const [mnemonic, want] of file.cells) {
        const id = fredmdSeriesId('fredmd', mnemonic);
        if (!placed.has(id)) continue;
        held.add(id);
        const got = view.get(id) ?? new Map<number, number | null>();
        for (const [ts, value] of want) {
          compared++;
          if (got.get(ts) !== value)
            mismatches.push(`${name} ${id} ${ts}: file ${value}, view ${got.get(ts)}`);
        }
        for (const [ts, value] of got) {
          if (value !== null && !want.has(ts))
            mismatches.push(`${name} ${id} ${ts}: not in file, view ${value}`);
        }
      }
      // A placed series the file does not hold keeps what the last vintage holding it said (a vintage without
      // the column says nothing of the series; FRED-MD drops and re-adds series), or has no value at all.
      for (const id of placed) {
        if (held.has(id)) {
          lastHeld.set(id, snapshot(id));
          continue;
        }
        if (snapshot(id) !== (lastHeld.get(id) ?? '[]'))
          mismatches.push(`${name} ${id}: series not in file, yet its view changed`);
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(1_000_000);
  }, 120_000);

  it('accounts for every non-empty value cell of every file (read = an independent count)', () => {
    expect(sink.accounting.map((a) => a.file)).toEqual(names);
    let read = 0;
    for (const a of sink.accounting) {
      const file = readIndependently(a.file);
      expect({ file: a.file, read: a.read }).toEqual({ file: a.file, read: file.nonEmpty });
      expect(a.mapped + Object.values(a.dropped).reduce((x, y) => x + y, 0)).toBe(a.read);
      expect(Object.keys(a.dropped).every((r) => r === 'unmapped_series' || r === 'bad_value')).toBe(true);
      expect(a.mappable).toBe(a.read - (a.dropped.unmapped_series ?? 0));
      expect(a.record).toBe('cell');
      expect(a.source).toBe('fredmd');
      read += a.read;
    }
    expect(read).toBe(1_746_349); // Python's csv module over the same files counts the same
    // Only the series no registry unit holds at M are unplaced (rates, spreads, FX, stock market, VXO).
    expect(summary.unmapped).toContain('fredmd:S&P 500');
    expect(summary.unmapped).toContain('fredmd:FEDFUNDS');
    expect(summary.unmapped).not.toContain('fredmd:RETAILx');
  });

  it('quirk: the historical fixed-width format (leading spaces, 9 decimals) reads as the plain number', () => {
    // fredmd_vintage_1999-08.csv writes RPI of 1959-01 as "  1691.300000000".
    const view = asOfView(sink, fredmdVintageAvailableAt('1999-08'));
    expect(view.get('fredmd:RPI')?.get(endOfDayMicros('1959-01-31', 'America/New_York'))).toBe(1691.3);
  });

  it('quirk: blanks in the last months are not published, and appear when a later vintage has them', () => {
    // CMRMTSPLx (manufacturing and trade sales) is a month late: 2008-09 has no 2008-08 value, 2008-10 has it.
    const aug08 = endOfDayMicros('2008-08-31', 'America/New_York');
    const rows = sink.observations.filter((o) => o.series_id === 'fredmd:CMRMTSPLx' && o.timestamp === aug08);
    expect(rows.length).toBeGreaterThan(0);
    expect(Math.min(...rows.map((o) => o.available_at))).toBe(fredmdVintageAvailableAt('2008-10'));
    expect(asOfView(sink, fredmdVintageAvailableAt('2008-09')).get('fredmd:CMRMTSPLx')?.has(aug08)).toBe(
      false,
    );
  });

  it('revisions are rows at the later vintage; values published unchanged are not repeated', () => {
    const indpro = sink.observations.filter((o) => o.series_id === 'fredmd:INDPRO');
    const jan59 = indpro.filter((o) => o.timestamp === endOfDayMicros('1959-01-31', 'America/New_York'));
    // Re-based over the years (base-year changes are revisions of one series), so more than one row…
    expect(jan59.length).toBeGreaterThan(1);
    // …but never two consecutive rows with the same value.
    for (let i = 1; i < jan59.length; i++) expect(jan59[i].value).not.toBe(jan59[i - 1].value);
    expect(summary.revisions).toBeGreaterThan(0);
  });
});
