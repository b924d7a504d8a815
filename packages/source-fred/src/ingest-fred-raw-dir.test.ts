import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endOfDayMicros, microsToIso, zonedMicros } from '@asof/calendar';
import { CollectingSink, type ObservationRow, type WithdrawalRow } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { ingestFredRawDir, ingestFredRawFiles } from './ingest-fred-raw-dir.ts';
import type { FredMapOptions } from './map-fred-to-atomic.ts';
import { normalizeFredPeriod } from './normalize-fred-period.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/fred', import.meta.url));
const has = existsSync(dir);

const macro = { scope: 'Country', category: 'Macro', detail_category: 'Test macro' };
const mapping: FredMapOptions['mapping'] = {
  GDP: { ...macro, frequency: 'Q' },
  CPIAUCSL: macro,
  PAYEMS: macro,
  UNRATE: macro,
  GDPC1: macro,
  DGS10: { scope: 'Country', category: 'Rates', detail_category: 'Test rates' },
};

function files(...names: string[]) {
  return names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));
}
function json(name: string) {
  return JSON.parse(readFileSync(join(dir, name), 'utf8'));
}

/**
 * SPEC §1: for each timestamp, the row with the greatest available_at ≤ t; no row where that is a
 * withdrawal (as models/as_of_view.sql of @asof/transform does).
 */
function asOfView(sink: CollectingSink, t: number): Map<number, ObservationRow> {
  const view = new Map<number, ObservationRow | WithdrawalRow>();
  for (const r of [...sink.observations, ...sink.withdrawals]) {
    if (r.available_at > t) continue;
    const cur = view.get(r.timestamp);
    if (cur === undefined || r.available_at > cur.available_at) view.set(r.timestamp, r);
  }
  const out = new Map<number, ObservationRow>();
  for (const [k, r] of view) if ('value' in r) out.set(k, r);
  return out;
}
function firstReleaseView(rows: readonly ObservationRow[]): Map<number, ObservationRow> {
  const view = new Map<number, ObservationRow>();
  for (const r of rows) {
    const cur = view.get(r.timestamp);
    if (cur === undefined || r.available_at < cur.available_at) view.set(r.timestamp, r);
  }
  return view;
}
const q = (date: string) => normalizeFredPeriod(date, 'Q').timestamp;
const m = (date: string) => normalizeFredPeriod(date, 'M').timestamp;

describe.skipIf(!has)('FRED real fixtures (needs ../shared/fixtures/real/fred)', () => {
  it('accounts for every record of every file: read = mapped + dropped, read = the records in the file', async () => {
    const sink = new CollectingSink();
    await ingestFredRawDir(dir, sink, { mapping });
    const names = sink.inputs.map((i) => i.key).sort();
    expect(sink.accounting.map((a) => a.file).sort()).toEqual(names);
    for (const a of sink.accounting) {
      const dropped = Object.values(a.dropped).reduce((x, y) => x + y, 0);
      expect(a.mapped + dropped, a.file).toBe(a.read);
      const text = readFileSync(join(dir, a.file), 'utf8');
      // Counted independently of the parser: a CSV's data lines × its value columns, a JSON's observations.
      let expected = 1;
      if (a.file.endsWith('.csv')) {
        const lines = text.split(/\r?\n/).filter((l) => /^\d{4}-\d{2}-\d{2},/.test(l));
        expected = lines.reduce((n, l) => n + l.split(',').length - 1, 0);
      } else if ('observations' in JSON.parse(text)) expected = JSON.parse(text).observations.length;
      expect(a.read, a.file).toBe(expected);
    }
    // The vintages hold every GDP value the downloads next to them hold: nothing mapped twice, none lost.
    const latest = sink.accounting.find((a) => a.file === 'fred_api_series_observations_GDP_latest.json')!;
    expect(
      Object.keys(latest.dropped).every((r) => r === 'superseded_by_vintages' || r === 'not_published'),
    ).toBe(true);
    const all = sink.accounting.find((a) => a.file === 'fred_api_series_observations_GDP_all_vintages.json')!;
    expect(all.mapped).toBeGreaterThan(0);
    expect(all.mappable).toBe(all.read - (all.dropped.not_published ?? 0));
  });

  it('GDP all vintages: the as-of view at 2019-01-01 equals the realtime_end=2019-01-01 response', () => {
    const sink = new CollectingSink();
    const summary = ingestFredRawFiles(
      files(
        'fred_api_series_observations_GDP_all_vintages.json',
        'fred_api_series_GDP.json',
        'fred_api_series_release_GDP.json',
      ),
      sink,
      { mapping },
    );
    expect(summary.series).toHaveLength(1);
    expect(summary.series[0]).toMatchObject({
      fredId: 'GDP',
      kind: 'vintages',
      frequency: 'Q',
      releaseId: 53,
    });
    expect(sink.series[0]).toMatchObject({
      series_id: 'fred:GDP',
      universe_kind: 'point_in_time',
      currency: 'USD',
    });
    expect(sink.observations.every((o) => o.available_at_basis === 'vintage')).toBe(true);

    const ref = json('fred_api_series_observations_GDP_realtime_1776-07-04_to_2019-01-01.json')
      .observations as {
      date: string;
      realtime_end: string;
      value: string;
    }[];
    const latest = ref.filter((o) => o.realtime_end === '2019-01-01');
    expect(latest.length).toBe(new Set(ref.map((o) => o.date)).size);
    const view = asOfView(sink, endOfDayMicros('2019-01-01'));
    // Date for date over all 291 reference dates: a value where the reference has one, no row where it
    // says "." (1946Q1–Q4, withdrawn by BEA in a later vintage: withdrawal rows).
    expect(latest).toHaveLength(291);
    expect(latest.filter((o) => o.value === '.').map((o) => o.date)).toEqual([
      '1946-01-01',
      '1946-04-01',
      '1946-07-01',
      '1946-10-01',
    ]);
    for (const o of latest) {
      expect([o.date, view.get(q(o.date))?.value ?? '.']).toEqual([
        o.date,
        o.value === '.' ? '.' : Number(o.value),
      ]);
    }
    expect(view.size).toBe(287);
    // ALFRED's GDP history withdrew the pre-1959 quarters in 1996 and 1999 and restored most of them later;
    // 1946 was withdrawn for good on 1999-10-28 (BEA's comprehensive revision).
    const at1946q1 = [...sink.observations, ...sink.withdrawals]
      .filter((r) => r.timestamp === q('1946-01-01'))
      .sort((x, y) => x.available_at - y.available_at)
      .map((r) => [r.source_ref, 'value' in r ? 'value' : 'withdrawn']);
    expect(at1946q1.slice(-1)).toEqual([['alfred:1999-10-28', 'withdrawn']]);
    expect(at1946q1).toContainEqual(['alfred:1996-01-19', 'withdrawn']);
    for (const w of sink.withdrawals) {
      expect(w.available_at_basis).toBe('vintage');
      // Each withdrawal follows a published value of its period.
      expect(
        sink.observations.some((o) => o.timestamp === w.timestamp && o.available_at < w.available_at),
      ).toBe(true);
    }
    expect(summary.series[0].withdrawals).toBe(sink.withdrawals.length);
    expect(sink.warnings.find((w) => w.code === 'FRED_VALUES_WITHDRAWN')?.message).toMatch(/1946-01-01/);
    // Nothing of 2019-01-02 or later leaks into the view.
    const cutoff = endOfDayMicros('2019-01-01');
    for (const r of view.values()) expect(r.available_at).toBeLessThanOrEqual(cutoff);
    // A vintage published 2019-01-02 or later is excluded; one 2018-12-21 is included (2018Q3 third estimate).
    expect(view.get(q('2018-07-01'))?.source_ref).toBe('alfred:2018-12-21');
  });

  it('GDP: the first-release view equals the output_type=4 response, stamped 08:30 ET on the release day', () => {
    const sink = new CollectingSink();
    ingestFredRawFiles(
      files('fred_api_series_observations_GDP_all_vintages.json', 'fred_api_series_release_GDP.json'),
      sink,
      { mapping },
    );
    const first = firstReleaseView(sink.observations);
    const ot4 = json('fred_api_series_observations_GDP_initial_release_output_type_4.json').observations as {
      date: string;
      realtime_start: string;
      value: string;
    }[];
    expect(ot4).toHaveLength(132);
    for (const o of ot4) {
      const row = first.get(q(o.date));
      expect([o.date, row?.value, row?.available_at]).toEqual([
        o.date,
        Number(o.value),
        zonedMicros(o.realtime_start, '08:30', 'America/New_York'),
      ]);
    }
    // Periods absent from output_type=4 are the pre-1991Q4 history ALFRED's first vintages carried.
    const ot4Stamps = new Set(ot4.map((o) => q(o.date)));
    for (const t of first.keys()) if (!ot4Stamps.has(t)) expect(t).toBeLessThan(q('1991-10-01'));
  });

  it('merging the all-vintages, as-of and output_type=4 responses of GDP gives the same rows', () => {
    const a = new CollectingSink();
    ingestFredRawFiles(files('fred_api_series_observations_GDP_all_vintages.json'), a, { mapping });
    const b = new CollectingSink();
    ingestFredRawFiles(
      files(
        'fred_api_series_observations_GDP_all_vintages.json',
        'fred_api_series_observations_GDP_initial_release_output_type_4.json',
        'fred_api_series_observations_GDP_realtime_1776-07-04_to_2019-01-01.json',
        'fred_api_series_observations_GDP_latest.json',
        'fred_api_series_vintagedates_GDP.json',
      ),
      b,
      { mapping },
    );
    expect(b.observations).toEqual(a.observations);
    expect(b.withdrawals).toEqual(a.withdrawals);
    expect(b.warnings.some((w) => w.code === 'FRED_DOWNLOADS_IGNORED')).toBe(true);
    // One row per (series, timestamp, available_at), and never two equal consecutive values (a withdrawal
    // counts as the value null: never two withdrawals in a row, never a withdrawal first).
    const all = [...a.observations, ...a.withdrawals.map((w) => ({ ...w, value: null }))];
    const keys = new Set(all.map((o) => `${o.timestamp}|${o.available_at}`));
    expect(keys.size).toBe(all.length);
    const byT = new Map<number, { available_at: number; value: number | null }[]>();
    for (const o of all) byT.set(o.timestamp, [...(byT.get(o.timestamp) ?? []), o]);
    for (const list of byT.values()) {
      list.sort((x, y) => x.available_at - y.available_at);
      expect(list[0].value).not.toBeNull();
      for (let i = 1; i < list.length; i++) expect(list[i].value).not.toBe(list[i - 1].value);
    }
    expect(a.inputs.map((i) => i.key)).toEqual(['fred_api_series_observations_GDP_all_vintages.json']);
    expect(a.inputs[0].sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('CPI release dates give available_at 08:30 America/New_York, DST-correct in UTC', () => {
    const sink = new CollectingSink();
    const summary = ingestFredRawFiles(
      files('fredgraph_legacy_CPIAUCSL_vintage_2017-04.csv', 'fred_api_release_dates_10.json'),
      sink,
      { mapping },
    );
    expect(summary.series[0]).toMatchObject({
      fredId: 'CPIAUCSL',
      kind: 'snapshots',
      frequency: 'M',
      releaseId: 10,
    });
    expect(sink.series[0].universe_kind).toBe('static');
    const at = (date: string) => sink.observations.find((o) => o.timestamp === m(date))!;
    // January 2017 CPI: 2017-02-15 (not the seasonal-factor release of 2017-02-13), EST → 13:30Z.
    expect(microsToIso(at('2017-01-01').available_at)).toBe('2017-02-15T13:30:00.000000Z');
    // February 2017 CPI: 2017-03-15, after the DST switch of 2017-03-12 → EDT → 12:30Z.
    expect(microsToIso(at('2017-02-01').available_at)).toBe('2017-03-15T12:30:00.000000Z');
    expect(microsToIso(at('2016-06-01').available_at)).toBe('2016-07-15T12:30:00.000000Z');
    expect(at('2017-01-01').available_at_basis).toBe('rule');
    // Every value from the calendar's years is stamped at 08:30 New York time.
    const hm = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const stamped = sink.observations.filter((o) => o.timestamp > m('1949-01-01'));
    expect(stamped.length).toBeGreaterThan(800);
    for (const o of stamped) expect(hm.format(new Date(o.available_at / 1000))).toBe('08:30');
    for (const o of sink.observations) expect(o.available_at).toBeGreaterThan(o.timestamp);
  });

  it('PAYEMS 2017-04 vs 2017-06 downloads yield the two revisions as separate vintage rows', () => {
    const sink = new CollectingSink();
    const summary = ingestFredRawFiles(
      files('fredgraph_legacy_PAYEMS_vintage_2017-04.csv', 'fredgraph_legacy_PAYEMS_vintage_2017-06.csv'),
      sink,
      { mapping },
    );
    expect(summary.series[0].revisions).toBe(2);
    const rowsOf = (date: string) =>
      sink.observations
        .filter((o) => o.timestamp === m(date))
        .sort((a, b) => a.available_at - b.available_at);
    const feb = rowsOf('2017-02-01');
    expect(feb.map((o) => [o.value, o.available_at_basis])).toEqual([
      [145760, 'rule'],
      [145773, 'vintage'],
    ]);
    // BLS released February 2017 on 2017-03-10, 08:30 EST; the revision is dated by the June download
    // (end of month, ET).
    expect(microsToIso(feb[0].available_at)).toBe('2017-03-10T13:30:00.000000Z');
    expect(feb[1].available_at).toBe(endOfDayMicros('2017-06-30'));
    expect(rowsOf('2017-03-01').map((o) => o.value)).toEqual([145858, 145823]);
    // New months in the later download are rule-based, not dated by the download.
    expect(
      rowsOf('2017-05-01').map((o) => [o.value, o.available_at_basis, microsToIso(o.available_at)]),
    ).toEqual([[146135, 'rule', '2017-06-02T12:30:00.000000Z']]);
    const sha = new Set(sink.inputs.map((i) => `sha256:${i.sha256}`));
    for (const o of sink.observations) expect(sha.has(o.source_ref)).toBe(true);
    expect(feb[0].source_ref).not.toBe(feb[1].source_ref);
  });

  it("DGS10's empty holiday values are missing, not 0", () => {
    const text = readFileSync(join(dir, 'fredgraph_DGS10_2005_vintage_2025-09.csv'), 'utf8');
    const empty = text.split('\n').filter((l) => /^\d{4}-\d{2}-\d{2},\r?$/.test(l));
    expect(empty.length).toBe(221);
    const dataLines = text.split('\n').filter((l) => /^\d{4}-/.test(l)).length;
    const sink = new CollectingSink();
    const summary = ingestFredRawFiles(files('fredgraph_DGS10_2005_vintage_2025-09.csv'), sink, { mapping });
    expect(summary.series[0]).toMatchObject({ frequency: 'BD', missing: 221 });
    expect(sink.observations).toHaveLength(dataLines - 221);
    expect(sink.observations.some((o) => o.value === 0)).toBe(false);
    const holiday = endOfDayMicros('2005-01-17'); // Martin Luther King Jr. Day
    expect(sink.observations.some((o) => o.timestamp === holiday)).toBe(false);
    // H.15: next business day 16:15 ET; Friday 2005-01-14 → Tuesday 2005-01-18 (Monday was a holiday).
    const fri = sink.observations.find((o) => o.timestamp === endOfDayMicros('2005-01-14'))!;
    expect(microsToIso(fri.available_at)).toBe('2005-01-18T21:15:00.000000Z');
    expect(fri.period_start).toBeNull();
  });

  it('reads current-format CSVs with legacy downloads of the same series as three vintages', () => {
    const sink = new CollectingSink();
    const summary = ingestFredRawFiles(
      files(
        'fredgraph_legacy_UNRATE_vintage_2017-04.csv',
        'fredgraph_legacy_UNRATE_vintage_2017-06.csv',
        'fredgraph_UNRATE_2005_vintage_2025-09.csv',
      ),
      sink,
      { mapping },
    );
    const jan16 = sink.observations.filter((o) => o.timestamp === m('2016-01-01')).map((o) => o.value);
    expect(jan16).toEqual([4.9, 4.8]);
    expect(summary.series[0].revisions).toBeGreaterThanOrEqual(15);
    // fredgraph CSVs carry no units; the mapping places the series only, the FRED catalog gives its unit.
    expect(sink.series.map((s) => [s.series_id, s.unit])).toEqual([['fred:UNRATE', 'Percent']]);
  });

  it('places catalog series from the taxonomy FRED catalog by default', () => {
    const sink = new CollectingSink();
    ingestFredRawFiles(files('fredgraph_legacy_GDPC1_vintage_2017-04.csv', 'fred_api_series_GDP.json'), sink);
    expect(sink.series[0]).toMatchObject({
      series_id: 'fred:GDPC1',
      unit: 'Billions of Chained 2017 Dollars',
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: 'Gdp',
      frequency: 'Q',
      universe_kind: 'static',
    });
  });
});

describe('ingestFredRawDir (hand-made files)', () => {
  const enc = new TextEncoder();
  const file = (name: string, text: string) => ({ name, bytes: enc.encode(text) });

  it('refuses a series outside the catalog without a mapping, naming the series and the fix', () => {
    const csv = file('x.csv', 'DATE,NOTINCATALOG1\n2017-01-01,1\n2017-02-01,2\n');
    expect(() => ingestFredRawFiles([csv], new CollectingSink())).toThrow(
      /NOTINCATALOG1 is not in the taxonomy's FRED catalog.*mapping/,
    );
    const entry = {
      series_id: 'NOTINCATALOG1',
      title: 'Test',
      frequency: 'M',
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: 'Activity',
      verified: false,
    };
    // A fredgraph CSV carries no units: without them in the catalog (or mapping) the series is refused.
    expect(() => ingestFredRawFiles([csv], new CollectingSink(), { catalog: [entry] })).toThrow(
      /FRED series NOTINCATALOG1: no units .*unit: 'Percent'/,
    );
    const sink = new CollectingSink();
    ingestFredRawFiles([csv], sink, { catalog: [{ ...entry, unit: 'Index 2017=100' }] });
    expect(sink.series[0]).toMatchObject({
      series_id: 'fred:NOTINCATALOG1',
      detail_category: 'Activity',
      unit: 'Index 2017=100',
    });
  });

  it('turns FRED error JSON in the directory into a FredApiError naming the series', () => {
    expect(() =>
      ingestFredRawFiles(
        [
          file(
            'fred_api_series_observations_NOPE_all_vintages.json',
            '{"error_code":400,"error_message":"Bad Request.  The series does not exist."}',
          ),
        ],
        new CollectingSink(),
        { mapping },
      ),
    ).toThrow(/FRED refused series NOPE.*series does not exist/);
  });

  it('needs download dates to combine several downloads, from the name, a sidecar or options', async () => {
    const a = 'DATE,UNRATE\n2017-01-01,4.8\n2017-02-01,4.7\n';
    const b = 'DATE,UNRATE\n2017-01-01,4.7\n2017-02-01,4.7\n2017-03-01,4.5\n';
    expect(() =>
      ingestFredRawFiles([file('u1.csv', a), file('u2.csv', b)], new CollectingSink(), { mapping }),
    ).toThrow(/2 downloads of the series but no download date for u1\.csv, u2\.csv/);
    const tmp = mkdtempSync(join(tmpdir(), 'asof-fred-rawdir-'));
    try {
      writeFileSync(join(tmp, 'u1.csv'), a);
      writeFileSync(join(tmp, 'u2.csv'), b);
      writeFileSync(join(tmp, 'u2.csv.meta.json'), '{"download_date":"2017-04-10"}');
      const sink = new CollectingSink();
      const summary = await ingestFredRawDir(tmp, sink, {
        mapping,
        downloadDates: { 'u1.csv': '2017-03-20' },
      });
      expect(summary.series[0]).toMatchObject({ fredId: 'UNRATE', kind: 'snapshots', revisions: 1 });
      const jan = sink.observations.filter((o) => o.timestamp === m('2017-01-01'));
      expect(jan.map((o) => [o.value, microsToIso(o.available_at)])).toEqual([
        [4.8, '2017-02-03T13:30:00.000000Z'],
        [4.7, '2017-04-11T03:59:59.999999Z'],
      ]);
      expect(sink.inputs.map((i) => i.key).sort()).toEqual(['u1.csv', 'u2.csv', 'u2.csv.meta.json']);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
