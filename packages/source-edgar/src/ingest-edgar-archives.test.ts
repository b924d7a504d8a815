import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { endOfDayMicros, zonedMicros } from '@asof/calendar';
import { CollectingSink, type Micros, type ObservationRow, OUT_OF_SCOPE_REASONS } from '@asof/schema';
import { edgarConceptMap } from '@asof/taxonomy';
import { afterAll, describe, expect, it } from 'vitest';
import { asOfValue } from './as-of-view.ts';
import { detailCategorySlug } from './edgar-concept-mapping.ts';
import type { EdgarIngestSummary } from './ingest-edgar-payloads.ts';
import { ingestEdgarRawDir } from './ingest-edgar-raw-dir.ts';
import { classifyPeriod } from './parse-companyfacts.ts';

// Real downloads made by others at known dates (see PROVENANCE.md of each folder); read in place.
const ARCHIVE = fileURLToPath(new URL('../../../../shared/fixtures/real-archive/sec/', import.meta.url));
const REAL = fileURLToPath(new URL('../../../../shared/fixtures/real/sec/', import.meta.url));
const hasArchive = existsSync(ARCHIVE);
const hasReal = existsSync(REAL);
const NY = 'America/New_York';

const companyfactsIn = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((n) => /^companyfacts.*\.json(\.gz)?$/.test(n)) : [];

type RawFact = { start?: string; end: string; val: number; accn: string; form: string; filed: string };
type RawFacts = {
  entityName: string;
  facts: Record<string, Record<string, { units: Record<string, RawFact[]> }>>;
};
const rawCache = new Map<string, RawFacts>();
function readRaw(path: string): RawFacts {
  let r = rawCache.get(path);
  if (!r) {
    let buf = readFileSync(path);
    if (path.endsWith('.gz')) buf = gunzipSync(buf);
    r = JSON.parse(buf.toString('utf8')) as RawFacts;
    rawCache.set(path, r);
  }
  return r;
}
/** Fact rows counted here, independently of the parser: every element of facts[tax][concept].units[unit]. */
function countRows(raw: RawFacts): number {
  let n = 0;
  for (const concepts of Object.values(raw.facts))
    for (const c of Object.values(concepts)) for (const rows of Object.values(c.units)) n += rows.length;
  return n;
}

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});
/** A raw dir made of symlinks to the given files, so each download can be built on its own. */
function rawDirOf(files: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'asof-edgar-archive-'));
  tmpDirs.push(dir);
  for (const f of files) symlinkSync(f, join(dir, f.slice(f.lastIndexOf('/') + 1)));
  return dir;
}
interface Built {
  sink: CollectingSink;
  summary: EdgarIngestSummary;
}
const builds = new Map<string, Promise<Built>>();
function build(files: string[], conceptMap?: ReturnType<typeof edgarConceptMap>): Promise<Built> {
  const key = files.join('\n') + (conceptMap ? `|${conceptMap.map((m) => m.detail_category)}` : '');
  let b = builds.get(key);
  if (!b) {
    b = (async () => {
      const sink = new CollectingSink();
      const summary = await ingestEdgarRawDir(rawDirOf(files), sink, conceptMap ? { conceptMap } : {});
      return { sink, summary };
    })();
    builds.set(key, b);
  }
  return b;
}

const eod = (d: string) => endOfDayMicros(d, NY);
const periodClassOf = (start: string, end: string) => classifyPeriod(start, end);
const at = (d: string) => zonedMicros(d, '00:00', NY);

/**
 * The vintage property between two builds: for every (series, period) both may show, the rows with
 * available_at ≤ cut, in order. Equal sequences mean the as-of view (per key, the row with the greatest
 * available_at ≤ t) is the same at every instant t ≤ cut: same points, values and available_at.
 */
function compareVintages(
  a: ObservationRow[],
  b: ObservationRow[],
  cut: Micros,
  keep: (id: string) => boolean,
) {
  const seqs = (rows: ObservationRow[]) => {
    const m = new Map<string, string[]>();
    for (const r of [...rows].sort((x, y) => x.available_at - y.available_at)) {
      if (r.available_at > cut || !keep(r.series_id)) continue;
      const k = `${r.series_id}|${new Date(r.timestamp / 1000).toISOString().slice(0, 10)}`;
      m.set(k, [...(m.get(k) ?? []), `${r.available_at}:${r.value}`]);
    }
    return m;
  };
  const sa = seqs(a);
  const sb = seqs(b);
  const onlyA = [...sa.keys()].filter((k) => !sb.has(k));
  const onlyB = [...sb.keys()].filter((k) => !sa.has(k));
  const differing = [...sa.keys()].filter((k) => sb.has(k) && sa.get(k)!.join() !== sb.get(k)!.join());
  return {
    points: [...sa.keys()].filter((k) => sb.has(k)).length,
    rows: [...sa.values()].reduce((n, s) => n + s.length, 0),
    onlyA,
    onlyB,
    differing: differing.map((k) => `${k}: ${sa.get(k)!.join(' ')} vs ${sb.get(k)!.join(' ')}`),
  };
}

/**
 * A copy (in a tmp dir) of the `newer` download without the fact rows filed before `cut` that the
 * `older` download does not list (same concept, period, filing and value): what the newer file would
 * be had SEC not added them since.
 */
function withoutFactsMissingFrom(newer: string, older: string, cut: string) {
  const key = (c: string, r: RawFact) => `${c}|${r.start ?? ''}|${r.end}|${r.accn}|${r.val}`;
  const had = new Set<string>();
  for (const concepts of Object.values(readRaw(older).facts))
    for (const [c, v] of Object.entries(concepts))
      for (const rows of Object.values(v.units)) for (const r of rows) had.add(key(c, r));
  const copy = structuredClone(readRaw(newer));
  const mappedConcepts = new Set(CONCEPT_MAP.flatMap((m) => m.concepts));
  const removed = { all: 0, mapped: 0 };
  for (const concepts of Object.values(copy.facts))
    for (const [c, v] of Object.entries(concepts))
      for (const [u, rows] of Object.entries(v.units)) {
        v.units[u] = rows.filter((r) => {
          const drop = r.filed < cut && !had.has(key(c, r));
          if (drop) {
            removed.all++;
            if (mappedConcepts.has(c)) removed.mapped++;
          }
          return !drop;
        });
      }
  const dir = mkdtempSync(join(tmpdir(), 'asof-edgar-trimmed-'));
  tmpDirs.push(dir);
  const path = join(dir, newer.slice(newer.lastIndexOf('/') + 1).replace('.json', '_trimmed.json'));
  writeFileSync(path, JSON.stringify(copy));
  return { path, removed };
}

const CONCEPT_MAP = edgarConceptMap();
const AUX_SHARES = [
  'WeightedAverageNumberOfSharesOutstandingBasic',
  'WeightedAverageNumberOfShareOutstandingBasicAndDiluted',
];
/**
 * Series ids two downloads can fairly be compared on when one holds fewer concepts (the `_subset` files
 * keep only some us-gaap concepts): a category counts only if both files hold the same concepts of its
 * fallback list, since a missing preferred concept lets a fallback concept supply the value; Q4 EPS
 * also reads net income and the weighted share counts.
 */
function comparableSeries(a: RawFacts, b: RawFacts): (id: string) => boolean {
  const held = (raw: RawFacts, concepts: string[]) =>
    concepts.filter((c) => raw.facts['us-gaap']?.[c] !== undefined).join();
  const same = (concepts: string[]) => held(a, concepts) === held(b, concepts);
  const ok = new Set<string>();
  const byName = new Map(CONCEPT_MAP.map((m) => [m.detail_category, m.concepts]));
  for (const m of CONCEPT_MAP) {
    if (!same(m.concepts)) continue;
    const slug = detailCategorySlug(m.detail_category);
    ok.add(`${slug}:A`);
    const eps = m.kind === 'per_share';
    const shares = m.detail_category === 'EPS Basic' ? AUX_SHARES : (byName.get('Shares Diluted') ?? []);
    if (!eps || (same(byName.get('Net Income') ?? []) && same(shares))) ok.add(`${slug}:Q`);
  }
  return (id) => ok.has(id.split(':').slice(2).join(':'));
}

describe.skipIf(!hasArchive && !hasReal)(
  'EDGAR accounting on every real companyfacts file (needs ../shared/fixtures/real-archive/sec or real/sec)',
  () => {
    const files = [
      ...companyfactsIn(ARCHIVE).map((n) => ARCHIVE + n),
      ...companyfactsIn(REAL).map((n) => REAL + n),
    ];
    it.each(files.map((f) => [f.slice(f.lastIndexOf('/') + 1), f]))(
      '%s: one entry, read = the fact rows counted independently = mapped + dropped',
      async (name, path) => {
        const { sink } = await build([path]);
        expect(sink.accounting).toHaveLength(1);
        const [e] = sink.accounting;
        // The entry's key is the file's input key (its name in the raw dir).
        expect(sink.inputs.map((i) => i.key)).toEqual([name]);
        expect(e).toMatchObject({ source: 'edgar', file: name, record: 'fact' });
        expect(e.read).toBe(countRows(readRaw(path)));
        expect(e.mapped + Object.values(e.dropped).reduce((a, b) => a + b, 0)).toBe(e.read);
        const byDesign = Object.entries(e.dropped).filter(([r]) => OUT_OF_SCOPE_REASONS.includes(r));
        expect(e.mappable).toBe(e.read - byDesign.reduce((a, [, n]) => a + n, 0));
        // Every reason is one the parser names on purpose; none left unsettled.
        for (const reason of Object.keys(e.dropped)) {
          expect(reason).toMatch(
            /^(unknown_concept|ifrs_filer|unit:.+|duration_class|instant_off_period_end|nine_months_(not_additive|unpaired|superseded)|not_periodic_form|duplicate|conflicting_duplicate|lower_priority_concept|same_instant_superseded)$/,
          );
        }
      },
    );
  },
);

describe.skipIf(!hasArchive)(
  'EDGAR real archives: PROVENANCE quirks (needs ../shared/fixtures/real-archive/sec)',
  () => {
    const A = (n: string) => ARCHIVE + n;
    const AAPL21 = A('companyfacts_CIK0000320193_AAPL_vintage2021-07_full.json');
    const AAPL26 = A('companyfacts_CIK0000320193_AAPL_vintage2026-03_full.json');
    const GOOGL21 = A('companyfacts_CIK0001652044_GOOGL_vintage2021-07_full.json');
    const GOOGL25 = A('companyfacts_CIK0001652044_GOOGL_vintage2025-07_full.json');
    // The 2021-07 files were committed on 2021-07-01: everything in them was public before that day.
    const CUT_2021 = at('2021-07-01');
    const value = (b: Built, id: string, end: string, t: Micros) =>
      asOfValue(b.sink.observations, id, eod(end), t)?.value;

    it('AAPL 2021-07: per-share facts under USD are EPS', async () => {
      const b = await build([AAPL21]);
      // FY2020 (ending 2020-09-26) diluted EPS 3.28, filed under unit key "USD" in the 10-K of 2020-10-30.
      expect(value(b, 'edgar:0000320193:eps-diluted:A', '2020-09-26', CUT_2021)).toBe(3.28);
      // FY2019: 11.89 as first released, 2.97 after the 2020 4:1 split (both under "USD" in this file).
      const fy19 = b.sink.observations.filter(
        (o) => o.series_id === 'edgar:0000320193:eps-diluted:A' && o.timestamp === eod('2019-09-28'),
      );
      expect(fy19.map((o) => o.value)).toEqual([11.89, 2.97]);
      expect(b.sink.accounting[0].dropped['unit:USD']).toBeUndefined();
    });

    it.each(companyfactsIn(ARCHIVE).filter((n) => n.includes('vintage2021-07')))(
      '%s (2021 download): EPS series exist and no EPS fact is dropped for its unit',
      async (name) => {
        // Built with the EPS categories alone, so every fact outside them is unknown_concept and the
        // other reasons speak of EPS facts only.
        const epsOnly = CONCEPT_MAP.filter((m) => m.kind === 'per_share');
        const b = await build([A(name)], epsOnly);
        const ids = new Set(b.sink.series.map((s) => s.series_id));
        const cik = /CIK(\d{10})/.exec(name)![1];
        expect(ids).toContain(`edgar:${cik}:eps-basic:A`);
        expect(ids).toContain(`edgar:${cik}:eps-diluted:A`);
        const e = b.sink.accounting[0];
        // Lemonade listed in July 2020: three quarters of 10-Qs and one 10-K.
        expect(e.mapped).toBeGreaterThan(name.includes('_LMND_') ? 5 : 50);
        const unitDrops = Object.keys(e.dropped).filter((r) => r.startsWith('unit:'));
        // ISRG's 10-Qs of 2010-07-23 and 2010-10-20 tagged their EPS comparatives twice, once under USD/shares
        // and once under "pure" (16 rows, e.g. Q2 2009 basic 1.65 both times): the `pure` copies repeat a value
        // the filing holds, so they are duplicates, and no EPS of any 2021 download is dropped for its unit.
        expect(unitDrops).toEqual([]);
        if (name.includes('_ISRG_')) {
          const eps = readRaw(A(name)).facts['us-gaap'];
          const pure = ['EarningsPerShareBasic', 'EarningsPerShareDiluted'].flatMap(
            (c) => eps[c].units.pure ?? [],
          );
          expect(pure.length).toBe(16);
          expect(e.dropped.duplicate).toBeGreaterThanOrEqual(16);
        }
        // The rest of what is dropped is dropped by design: 9M and 6M year-to-date EPS (never
        // differenced), and copies of a value within one filing.
        for (const r of Object.keys(e.dropped))
          expect(r).toMatch(
            /^(unknown_concept|nine_months_not_additive|duration_class|duplicate|lower_priority_concept)$/,
          );
      },
    );

    it('GOOGL FY2020 EPS 59.15 restated 2.96 after the split', async () => {
      const id = 'edgar:0001652044:eps-basic:A';
      const old = await build([GOOGL21]);
      const recent = await build([GOOGL25]);
      expect(value(old, id, '2020-12-31', CUT_2021)).toBe(59.15);
      expect(value(recent, id, '2020-12-31', CUT_2021)).toBe(59.15);
      // The 20:1 split of July 2022 reached FY2020 in the 10-K filed 2023-02-03.
      expect(value(recent, id, '2020-12-31', at('2023-02-03'))).toBe(59.15);
      expect(value(recent, id, '2020-12-31', at('2023-02-04'))).toBe(2.96);
    });

    it('NEE 4:1 split of October 2020: FY2019 diluted EPS 7.76 until the next 10-K restated it to 1.94', async () => {
      // Both values are in the one 2021 download, under the unit key USD: each is the vintage of its filing.
      const id = 'edgar:0000753308:eps-diluted:A';
      const b = await build([A('companyfacts_CIK0000753308_NEE_vintage2021-07_full.json')]);
      expect(value(b, id, '2019-12-31', at('2020-06-30'))).toBe(7.76);
      expect(value(b, id, '2019-12-31', at('2021-02-12'))).toBe(7.76);
      expect(value(b, id, '2019-12-31', at('2021-02-13'))).toBe(1.94);
    });

    it('HD fiscal year ending ~Feb 1: Q4 derived from the 2021 download', async () => {
      const hd = A('companyfacts_CIK0000354950_HD_vintage2021-07_full.json');
      const b = await build([hd]);
      const raw = readRaw(hd).facts['us-gaap'];
      // Fiscal 2020 ran 2020-02-03 … 2021-01-31; its 10-K was filed 2021-03-24 (companyfacts fy 2020 in
      // this download, as the year is labelled by its start; no rule reads fy).
      const rev = (start: string, end: string, form: string) =>
        ['RevenueFromContractWithCustomerExcludingAssessedTax', 'Revenues', 'SalesRevenueNet']
          .flatMap((c) => raw[c]?.units.USD ?? [])
          .find((f) => f.start === start && f.end === end && f.form === form)!.val;
      const fy = rev('2020-02-03', '2021-01-31', '10-K');
      const nine = rev('2020-02-03', '2020-11-01', '10-Q');
      const q4 = b.sink.observations.filter(
        (o) => o.series_id === 'edgar:0000354950:revenue:Q' && o.timestamp === eod('2021-01-31'),
      );
      expect(q4[0].value).toBe(fy - nine);
      expect(q4[0].source_ref).toMatch(/^derived:Q4=FY\(.+\)-9M\(.+\)$/);
      expect(q4[0].period_start).toBe(at('2020-11-02'));
      // Every fiscal year of the file has its Q4, reported (HD's 10-Ks list quarterly revenue) or derived.
      const ends = (id: string) =>
        new Set(b.sink.observations.filter((o) => o.series_id === id).map((o) => o.timestamp));
      const years = ends('edgar:0000354950:revenue:A');
      const quarters = ends('edgar:0000354950:revenue:Q');
      expect(years.size).toBeGreaterThanOrEqual(10);
      const missing = [...years].filter((t) => !quarters.has(t));
      // Except the two years before HD's first XBRL filing (2009-09): they appear only as fiscal-year
      // comparatives of later 10-Ks, with no quarter or nine months tagged (timestamps in UTC, so a day on).
      expect(missing.map((t) => new Date(t / 1000).toISOString().slice(0, 10))).toEqual([
        '2008-02-04',
        '2009-02-02',
      ]);
    });

    it('JPM bank (.json.gz kept gzipped): read as it is, registry concepts mapped, the rest counted', async () => {
      const name = 'companyfacts_CIK0000019617_JPM_bank_vintage2026-02_full_reserialized.json.gz';
      const b = await build([A(name)]);
      const e = b.sink.accounting[0];
      expect(e.file).toBe(name);
      expect(e.read).toBe(48_657);
      expect(b.sink.inputs[0]).toMatchObject({ key: name, bytes: 480_261 });
      const ids = new Set(b.sink.series.map((s) => s.series_id));
      for (const slug of ['net-income:Q', 'eps-diluted:A', 'total-assets:Q', 'total-liabilities:A'])
        expect(ids).toContain(`edgar:0000019617:${slug}`);
      expect(e.dropped['unknown_concept']).toBeGreaterThan(40_000);
    });

    it('LMND insurer (IPO 2020): the few registry concepts it reports are mapped', async () => {
      const b = await build([A('companyfacts_CIK0001691421_LMND_vintage2021-07_full.json')]);
      expect(b.summary.ingested).toBe(1);
      expect(b.sink.accounting[0].mapped).toBeGreaterThan(100);
    });

    it('TSM IFRS 20-F filer in TWD: skipped with the reason, every fact dropped ifrs_filer', async () => {
      const name = 'companyfacts_CIK0001046179_TSM_ifrs_vintage2026-02_full.json';
      const b = await build([A(name)]);
      expect(b.summary.skipped[0].reason).toMatch(/IFRS filer.*ifrs-full.*ifrs_filer/);
      expect(b.sink.warnings.some((w) => w.code === 'EDGAR_COMPANY_SKIPPED')).toBe(true);
      expect(b.sink.accounting[0]).toMatchObject({ read: 5_979, mapped: 0, dropped: { ifrs_filer: 5_979 } });
      expect(b.sink.observations).toEqual([]);
    });

    it('SNOW pretty-printed (indented by edgartools): reads the same as the compact bytes', async () => {
      const name = 'companyfacts_CIK0001640147_SNOW_vintage2025-06_full_pretty.json';
      const pretty = await build([A(name)]);
      const dir = mkdtempSync(join(tmpdir(), 'asof-edgar-compact-'));
      tmpDirs.push(dir);
      const compact = join(dir, name.replace('_pretty', '_compact'));
      writeFileSync(compact, JSON.stringify(readRaw(A(name))));
      const other = await build([compact]);
      expect(other.sink.observations).toEqual(pretty.sink.observations);
      expect(pretty.sink.observations.length).toBeGreaterThan(300);
    });

    it('XOM 10-K/A, GM 10-Q/A, AAPL 8-K rows: amendments and 8-K values are vintages of their periods', async () => {
      const aapl = await build([AAPL21]);
      // AAPL's 10-K/A of 2010-01-25 restated FY2009 and FY2008 (a change in revenue recognition): the
      // restated FY2008 revenue is a new vintage dated by that filing.
      const fy08 = aapl.sink.observations.filter(
        (o) => o.series_id === 'edgar:0000320193:revenue:A' && o.timestamp === eod('2008-09-27'),
      );
      expect(fy08.map((o) => o.source_ref)).toContain('0001193125-10-012091');
      for (const f of [
        A('companyfacts_CIK0000034088_XOM_vintage2021-07_full.json'),
        A('companyfacts_CIK0001467858_GM_vintage2021-07_full.json'),
      ]) {
        const b = await build([f]);
        const cik = /CIK(\d{10})/.exec(f)![1];
        // Net income of a fiscal year or quarter as an amendment filed it: from the day after, the
        // as-of view shows that value (a repeat of the original adds no row but is the current value).
        const amended = (readRaw(f).facts['us-gaap']['NetIncomeLoss']?.units.USD ?? []).filter(
          (r) => r.form.endsWith('/A') && r.start && /^(3M|FY)$/.test(periodClassOf(r.start, r.end)),
        );
        expect(amended.length, f).toBeGreaterThan(0);
        for (const r of amended) {
          const id = `edgar:${cik}:net-income:${periodClassOf(r.start!, r.end) === 'FY' ? 'A' : 'Q'}`;
          const next = new Date(Date.parse(r.filed) + 86_400_000).toISOString().slice(0, 10);
          expect(value(b, id, r.end, at(next)), `${r.accn} ${r.start}..${r.end}`).toBe(r.val);
        }
      }
    });

    describe('the vintage property: before the older download was made, both downloads show the same', () => {
      it('AAPL 2021-07 vs 2026-03: equal but for Q4s derived from year-to-date facts the 2021 download lacks', async () => {
        const old = await build([AAPL21]);
        const r = compareVintages(
          old.sink.observations,
          (await build([AAPL26])).sink.observations,
          CUT_2021,
          () => true,
        );
        expect(r.points).toBeGreaterThan(800);
        expect(r.onlyA).toEqual([]);
        // SEC's data differ: the 2026 download lists year-to-date values of old 10-Qs that the 2021
        // download does not (e.g. SalesRevenueNet 2008-09-28..2009-06-27 = 26,667,000,000 in the 10-Q of
        // 2009-07-22; PaymentsToAcquireProductiveAssets and NetCashProvidedByUsedInOperatingActivities-
        // ContinuingOperations YTDs of 2009-2016). From the 2026 file alone, the Q4 = FY − 9M of those
        // years was known as soon as the 10-K came out; from the 2021 file, only when a later 10-K
        // reported the Q4 itself. These keys, and only these, differ:
        const q = (slug: string, ends: string[]) => ends.map((e) => `edgar:0000320193:${slug}:Q|${e}`);
        expect(r.onlyB).toEqual([
          ...q('revenue', ['2008-09-28']),
          ...q('capital-expenditures', [
            '2008-09-28',
            '2009-09-27',
            '2010-09-26',
            '2011-09-25',
            '2012-09-30',
            '2013-09-29',
          ]),
          ...q('operating-cash-flow', ['2014-09-28', '2015-09-27']),
        ]);
        expect(r.differing.map((d) => d.slice(0, d.indexOf(': ')))).toEqual([
          ...q('revenue', ['2009-09-27']),
          ...q('capital-expenditures', ['2014-09-28']),
          ...q('operating-cash-flow', ['2016-09-25']),
        ]);
        // Take those facts out of the 2026 file and the two downloads agree exactly before 2021-07.
        const { path, removed } = withoutFactsMissingFrom(AAPL26, AAPL21, '2021-07-01');
        expect(removed.mapped).toBe(72);
        const same = compareVintages(
          old.sink.observations,
          (await build([path])).sink.observations,
          CUT_2021,
          () => true,
        );
        expect([same.onlyA, same.onlyB, same.differing]).toEqual([[], [], []]);
        expect(same.points).toBe(r.points);
      });

      it('GOOGL 2021-07 vs 2025-07', async () => {
        const r = compareVintages(
          (await build([GOOGL21])).sink.observations,
          (await build([GOOGL25])).sink.observations,
          CUT_2021,
          () => true,
        );
        expect(r.points).toBeGreaterThan(400);
        // The 2025 download also lists year-to-date NetIncomeLossAvailableToCommonStockholdersBasic of
        // 10-Qs of 2015-2016 that the 2021 one lacks (6 rows), but NetIncomeLoss, preferred, is in both.
        expect(r.onlyA).toEqual([]);
        expect(r.onlyB).toEqual([]);
        expect(r.differing).toEqual([]);
      });

      it('one raw dir with both AAPL downloads reads their union: the same view as either before 2021-07', async () => {
        const both = await build([AAPL21, AAPL26]);
        expect(both.sink.accounting.map((e) => e.file).sort()).toEqual([
          'companyfacts_CIK0000320193_AAPL_vintage2021-07_full.json',
          'companyfacts_CIK0000320193_AAPL_vintage2026-03_full.json',
        ]);
        for (const e of both.sink.accounting)
          expect(e.read).toBe(countRows(readRaw(e.file.includes('2021') ? AAPL21 : AAPL26)));
        // The newest download is read first; the 2021 file's copies of the same facts are duplicates.
        const old = both.sink.accounting.find((e) => e.file.includes('2021'))!;
        expect(old.dropped['duplicate']).toBeGreaterThan(1000);
        // Every (concept, period, filing) of 2021 is still in the 2026 file (only 56 par values per share,
        // not read, changed), so the union is the 2026 build.
        expect(both.sink.observations).toEqual((await build([AAPL26])).sink.observations);
      });
    });
  },
);

describe.skipIf(!hasArchive || !hasReal)(
  'the vintage property against the older subsets (needs ../shared/fixtures/real-archive/sec and real/sec)',
  () => {
    const cases: [string, string, string, string, string[]][] = [
      // [older download, newer download, cut (the older download's date), why, keys SEC's data explain]
      [
        `${ARCHIVE}companyfacts_CIK0000320193_AAPL_vintage2021-07_full.json`,
        `${REAL}companyfacts_CIK0000320193_AAPL_subset.json`,
        '2021-07-01',
        'AAPL 2021-07 full vs the 2026-03 subset',
        // The year-to-date SalesRevenueNet the 2021 download lacks (see AAPL 2021-07 vs 2026-03 above);
        // the subset holds no PaymentsToAcquireProductiveAssets, so capital expenditures are not compared.
        ['edgar:0000320193:revenue:Q|2008-09-28', 'edgar:0000320193:revenue:Q|2009-09-27'],
      ],
      [
        `${ARCHIVE}companyfacts_CIK0000320193_AAPL_vintage2026-03_full.json`,
        `${REAL}companyfacts_CIK0000320193_AAPL_subset.json`,
        '2026-03-25',
        'AAPL 2026-03 full vs its own subset (same HTTP response, fewer concepts)',
        [],
      ],
      [
        `${ARCHIVE}companyfacts_CIK0001652044_GOOGL_vintage2021-07_full.json`,
        `${REAL}companyfacts_CIK0001652044_GOOGL_subset.json`,
        '2021-07-01',
        'GOOGL 2021-07 full vs the 2026-07 subset',
        [],
      ],
      [
        `${ARCHIVE}companyfacts_CIK0001652044_GOOGL_vintage2025-07_full.json`,
        `${REAL}companyfacts_CIK0001652044_GOOGL_subset.json`,
        '2025-07-26',
        'GOOGL 2025-07 full vs the 2026-07 subset',
        [],
      ],
    ];
    it.each(cases)('%#: %s', async (older, newer, cut, why, explained) => {
      const a = await build([older]);
      const b = await build([newer]);
      const keep = comparableSeries(readRaw(older), readRaw(newer));
      const r = compareVintages(a.sink.observations, b.sink.observations, at(cut), keep);
      expect(r.points, why).toBeGreaterThan(250);
      expect(r.onlyA, why).toEqual([]);
      const keys = [...r.onlyB, ...r.differing.map((d) => d.slice(0, d.indexOf(': ')))].sort();
      expect(keys, why).toEqual(explained);
    });

    it('GOOGL renamed between downloads ("ALPHABET INC." in 2026, "Alphabet Inc." before): warned, same ids', async () => {
      const sink = new CollectingSink();
      await ingestEdgarRawDir(
        rawDirOf([
          `${ARCHIVE}companyfacts_CIK0001652044_GOOGL_vintage2025-07_full.json`,
          `${REAL}companyfacts_CIK0001652044_GOOGL_subset.json`,
        ]),
        sink,
      );
      const w = sink.warnings.find((x) => x.code === 'EDGAR_COMPANY_RENAMED');
      expect(w?.message).toMatch(/"ALPHABET INC\.", "Alphabet Inc\."/);
      expect(new Set(sink.series.map((s) => s.entity_name))).toEqual(new Set(['ALPHABET INC.']));
      expect(sink.series.every((s) => s.series_id.startsWith('edgar:0001652044:'))).toBe(true);
      expect(sink.accounting).toHaveLength(2);
    });
  },
);

describe.skipIf(!hasReal)('EDGAR index files are accounted too (needs ../shared/fixtures/real/sec)', () => {
  it('every input of real/sec has one entry; submissions and pages count their filings, tickers their rows', async () => {
    const sink = new CollectingSink();
    await ingestEdgarRawDir(REAL, sink);
    const entries = new Map(sink.accounting.map((e) => [e.file, e]));
    expect([...entries.keys()].sort()).toEqual(sink.inputs.map((i) => i.key).sort());
    expect(sink.accounting).toHaveLength(sink.inputs.length);
    for (const e of sink.accounting) {
      expect(e.mapped + Object.values(e.dropped).reduce((a, b) => a + b, 0), e.file).toBe(e.read);
      const raw = JSON.parse(readFileSync(join(REAL, e.file), 'utf8'));
      // Counted from the JSON, not through the parser.
      if (e.file.startsWith('submissions_') && 'filings' in raw) {
        expect(e).toMatchObject({ record: 'filing', read: raw.filings.recent.accessionNumber.length });
      } else if (e.file.startsWith('submissions_')) {
        expect(e).toMatchObject({ record: 'filing', read: raw.accessionNumber.length });
      } else if (e.file === 'company_tickers.json') {
        expect(e).toMatchObject({ record: 'ticker', read: Object.keys(raw).length });
      } else expect(e.record).toBe('fact');
    }
  });
});

describe.skipIf(!hasArchive)(
  'EDGAR submissions without their companyfacts (needs ../shared/fixtures/real-archive/sec)',
  () => {
    it('FNMA (OTC), CARBO (delisted, with its overflow page), EXPE and TWO: no rows, every filing counted no_companyfacts', async () => {
      const names = readdirSync(ARCHIVE).filter((n) => /^submissions_/.test(n) && !/JPM/.test(n));
      const sink = new CollectingSink();
      await ingestEdgarRawDir(rawDirOf(names.map((n) => join(ARCHIVE, n))), sink);
      expect(sink.observations).toEqual([]);
      expect(sink.accounting.map((a) => a.file).sort()).toEqual([...names].sort());
      for (const a of sink.accounting)
        expect(a).toMatchObject({ mapped: 0, dropped: { no_companyfacts: a.read } });
      // CARBO's overflow page holds 205 filings back to its listing years.
      expect(sink.accounting.find((a) => /submissions-001_CARBO/.test(a.file))?.read).toBe(205);
    });
  },
);
