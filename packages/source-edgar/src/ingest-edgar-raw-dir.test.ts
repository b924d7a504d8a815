import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endOfDayMicros, isoToMicros, zonedMicros } from '@asof/calendar';
import { CollectingSink, type ObservationRow, SeriesInput } from '@asof/schema';
import { edgarConceptMap } from '@asof/taxonomy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOfValue } from './as-of-view.ts';
import { detailCategorySlug } from './edgar-concept-mapping.ts';
import type { EdgarIngestSummary } from './ingest-edgar-payloads.ts';
import { ingestEdgarRawDir } from './ingest-edgar-raw-dir.ts';

const SEC = fileURLToPath(new URL('../../../../shared/fixtures/real/sec/', import.meta.url));
const hasSec = existsSync(SEC);
const NY = 'America/New_York';

type RawFact = {
  start?: string;
  end: string;
  val: number;
  accn: string;
  form: string;
  filed: string;
  frame?: string;
};
type RawFacts = { facts: Record<string, Record<string, { units: Record<string, RawFact[]> }>> };

describe.skipIf(!hasSec)(
  'ingestEdgarRawDir on the real SEC files (needs ../shared/fixtures/real/sec)',
  () => {
    const sink = new CollectingSink();
    let summary: EdgarIngestSummary;
    const raw = new Map<string, RawFacts>();
    /** accn → filing date, from both companyfacts and submissions, read independently of the parser. */
    const filedOf = new Map<string, string>();

    beforeAll(async () => {
      summary = await ingestEdgarRawDir(SEC, sink);
      for (const [cik, file] of [
        ['0000320193', 'companyfacts_CIK0000320193_AAPL_subset.json'],
        ['0001045810', 'companyfacts_CIK0001045810_NVDA_subset.json'],
        ['0001652044', 'companyfacts_CIK0001652044_GOOGL_subset.json'],
        ['0001835632', 'companyfacts_CIK0001835632_MRVL_full.json'],
      ]) {
        const json = JSON.parse(readFileSync(`${SEC}${file}`, 'utf8')) as RawFacts;
        raw.set(cik, json);
        for (const concept of Object.values(json.facts['us-gaap'] ?? {}))
          for (const facts of Object.values(concept.units))
            for (const f of facts) filedOf.set(f.accn, f.filed);
      }
    });

    const rowsOf = (id: string) => sink.observations.filter((o) => o.series_id === id);
    // Memoised: time-zone conversion dominates these checks over thousands of rows.
    const memo = new Map<string, number>();
    const cached = (key: string, f: () => number) => {
      let v = memo.get(key);
      if (v === undefined) {
        v = f();
        memo.set(key, v);
      }
      return v;
    };
    const eodNY = (d: string) => cached(`e${d}`, () => endOfDayMicros(d, NY));
    const at = (d: string) => cached(`s${d}`, () => zonedMicros(d, '00:00', NY));
    const openNY = (d: string) => cached(`o${d}`, () => zonedMicros(d, '07:30', NY));
    const factsOf = (cik: string, concept: string, unit = 'USD') =>
      raw.get(cik)?.facts['us-gaap']?.[concept]?.units[unit] ?? [];

    it('NVDA basic EPS for the fiscal year ending 2021-01-31: 7.02 as of 2021-06-01, 1.76 as of 2023-06-01', () => {
      const id = 'edgar:0001045810:eps-basic:A';
      expect(asOfValue(sink.observations, id, eodNY('2021-01-31'), at('2021-06-01'))?.value).toBe(7.02);
      expect(asOfValue(sink.observations, id, eodNY('2021-01-31'), at('2023-06-01'))?.value).toBe(1.76);
      expect(asOfValue(sink.observations, id, eodNY('2021-01-31'), at('2021-02-26'))).toBeUndefined();
      // frame sits on the last-filed (1.76) row only; the 7.02 first release is kept anyway.
      const framed = factsOf('0001045810', 'EarningsPerShareBasic', 'USD/shares').filter(
        (f) => f.end === '2021-01-31' && f.start === '2020-01-27' && f.frame,
      );
      expect(framed.map((f) => f.val)).toEqual([1.76]);
    });

    it('AAPL diluted EPS FY2019: first release 11.89, later 2.97 after the 4:1 split', () => {
      const rows = rowsOf('edgar:0000320193:eps-diluted:A').filter(
        (r) => r.timestamp === eodNY('2019-09-28'),
      );
      expect(rows[0].value).toBe(11.89);
      expect(rows[0].source_ref).toBe('0000320193-19-000119');
      expect(rows[rows.length - 1].value).toBe(2.97);
      expect(rows.map((r) => r.value)).toEqual([11.89, 2.97]);
      expect(rows[0].period_start).toBe(at('2018-09-30'));
    });

    it('AAPL quarterly revenue continues across the SalesRevenueNet → RevenueFromContract… switch', () => {
      const rows = rowsOf('edgar:0000320193:revenue:Q');
      const ends = [...new Set(rows.map((r) => r.timestamp))].sort((a, b) => a - b);
      const oldTag = factsOf('0000320193', 'SalesRevenueNet').filter(
        (f) => f.start && f.form.startsWith('10-Q'),
      );
      const newTag = factsOf('0000320193', 'RevenueFromContractWithCustomerExcludingAssessedTax').filter(
        (f) => f.start && f.form.startsWith('10-Q'),
      );
      expect(oldTag.length).toBeGreaterThan(0);
      expect(newTag.length).toBeGreaterThan(0);
      const lastOld = oldTag
        .map((f) => f.end)
        .sort()
        .at(-1)!;
      const firstNew = newTag.map((f) => f.end).sort()[0];
      // The series spans both tags with no gap: consecutive fiscal quarter ends 13 or 14 weeks apart.
      expect(ends[0]).toBeLessThan(eodNY(lastOld));
      expect(ends.at(-1)!).toBeGreaterThan(eodNY(firstNew));
      for (let i = 1; i < ends.length; i++) {
        const days = (ends[i] - ends[i - 1]) / 86_400e6;
        expect(days, `gap before ${new Date(ends[i] / 1000).toISOString()}`).toBeGreaterThanOrEqual(90);
        expect(days).toBeLessThanOrEqual(99);
      }
      // A quarter known only under the old tag keeps its old-tag first release.
      const q = oldTag.find((f) => f.end === '2016-12-31')!;
      expect(
        rowsOf('edgar:0000320193:revenue:Q').find((r) => r.timestamp === eodNY('2016-12-31'))?.value,
      ).toBe(q.val);
    });

    it('every derived Q4 flow equals FY − 9M of the facts it names', () => {
      const derived = sink.observations.filter((o) => o.source_ref.startsWith('derived:Q4='));
      expect(derived.length).toBeGreaterThan(50);
      const conceptsBySlug = new Map(
        edgarConceptMap().map((m) => [detailCategorySlug(m.detail_category), m.concepts]),
      );
      for (const o of derived) {
        const [, fyAccn, ytdAccn] = /^derived:Q4=FY\((.+)\)-9M\((.+)\)$/.exec(o.source_ref)!;
        const [, cik, slug] = o.series_id.split(':');
        // The FY and the 9M value may come from different fallback concepts of the category (NVDA files
        // revenue as Revenues in 10-Qs and RevenueFromContract… in 10-Ks), so any pair of them may match.
        const usd = conceptsBySlug.get(slug)!.flatMap((c) => factsOf(cik, c));
        const fys = usd.filter((f) => f.accn === fyAccn && f.start && eodNY(f.end) === o.timestamp);
        const nines = usd.filter(
          (f) => f.accn === ytdAccn && f.start && at(f.end) + 86_400e6 === o.period_start,
        );
        const diffs = fys.flatMap((fy) =>
          nines.filter((n) => n.start === fy.start).map((n) => fy.val - n.val),
        );
        expect(diffs, `${o.series_id} ${o.source_ref}`).toContain(o.value);
      }
    });

    it('dates every row no earlier than its filing date 07:30 ET and never before its period ends', () => {
      expect(sink.observations.length).toBeGreaterThan(3000);
      const bad: string[] = [];
      for (const o of sink.observations) {
        const accns = o.source_ref.match(/\d{10}-\d{2}-\d{6}/g) ?? [];
        if (o.available_at < o.timestamp) bad.push(`${o.series_id} before period end`);
        if (o.available_at_basis !== 'filing') bad.push(`${o.series_id} basis ${o.available_at_basis}`);
        if (accns.length === 0) bad.push(`${o.series_id} source_ref ${o.source_ref}`);
        for (const a of accns)
          if (o.available_at < openNY(filedOf.get(a)!)) bad.push(`${o.series_id} ${a} before 07:30`);
      }
      expect(bad).toEqual([]);
    });

    it('keeps one row per (series, timestamp, available_at), and consecutive vintages differ', () => {
      const byKey = new Map<string, ObservationRow[]>();
      const grain = new Set<string>();
      const bad: string[] = [];
      for (const o of sink.observations) {
        const g = `${o.series_id}|${o.timestamp}|${o.available_at}`;
        if (grain.has(g)) bad.push(`duplicate ${g}`);
        grain.add(g);
        const k = `${o.series_id}|${o.timestamp}`;
        const list = byKey.get(k) ?? [];
        if (list.length > 0 && list[list.length - 1].value === o.value)
          bad.push(`unchanged re-publication ${k}`);
        list.push(o);
        byKey.set(k, list);
      }
      expect(bad).toEqual([]);
      expect(grain.size).toBe(sink.observations.length);
    });

    it('declares valid series with fiscal calendars, and skips the IFRS filer LPA with a reason', () => {
      for (const s of sink.series) expect(() => SeriesInput.parse(s)).not.toThrow();
      const aapl = sink.series.find((s) => s.series_id === 'edgar:0000320193:revenue:Q')!;
      expect(aapl).toMatchObject({
        entity_id: '0000320193',
        entity_name: 'Apple Inc.',
        fiscal_year_end: '0926',
        unit: 'USD',
        currency: 'USD',
        scope: 'Individual',
        category: 'Fundamentals',
        detail_category: 'Revenue',
        universe_kind: 'point_in_time',
        is_synthetic: false,
      });
      const eps = sink.series.find((s) => s.series_id === 'edgar:0001045810:eps-basic:A')!;
      expect([eps.unit, eps.currency]).toEqual(['USD/shares', 'USD']);
      const shares = sink.series.find((s) => s.series_id === 'edgar:0001045810:shares-diluted:Q')!;
      expect([shares.unit, shares.currency]).toEqual(['shares', null]);
      expect(summary.skipped).toEqual([
        {
          cik: '0001997711',
          entity_name: 'Logistic Properties of the Americas',
          reason: expect.stringMatching(/IFRS/),
        },
      ]);
      expect(
        sink.warnings.some((w) => w.code === 'EDGAR_COMPANY_SKIPPED' && /0001997711.*IFRS/.test(w.message)),
      ).toBe(true);
      expect(sink.inputs.map((i) => i.key)).toContain('company_tickers.json');
      expect(sink.inputs.every((i) => /^[0-9a-f]{64}$/.test(i.sha256) && i.bytes > 0)).toBe(true);
    });
  },
);

describe.skipIf(!hasSec)(
  "ingestEdgarRawDir follows Tesla's overflow page (needs ../shared/fixtures/real/sec)",
  () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'asof-edgar-tsla-'));
      copyFileSync(
        `${SEC}submissions_CIK0001318605_TSLA.json`,
        join(dir, 'submissions_CIK0001318605_TSLA.json'),
      );
      copyFileSync(
        `${SEC}submissions_CIK0001318605-submissions-001_TSLA.json`,
        join(dir, 'submissions_CIK0001318605-submissions-001_TSLA.json'),
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('dates a fact from a 2017 10-K (listed only on the overflow page) by its acceptance time', async () => {
      const page = JSON.parse(
        readFileSync(join(dir, 'submissions_CIK0001318605-submissions-001_TSLA.json'), 'utf8'),
      );
      const i = page.form.indexOf('10-K');
      const accn: string = page.accessionNumber[i];
      const filed: string = page.filingDate[i];
      const acceptance: string = page.acceptanceDateTime[i];
      const end = page.reportDate[i] as string;
      const yearBefore = `${Number(end.slice(0, 4)) - 1}${end.slice(4)}`;
      const startDay = new Date(Date.parse(`${yearBefore}T00:00:00Z`) + 86_400_000)
        .toISOString()
        .slice(0, 10);
      // A tiny hand-made companyfacts for Tesla whose only fact comes from that filing.
      writeFileSync(
        join(dir, 'companyfacts_CIK0001318605_TSLA.json'),
        JSON.stringify({
          cik: 1318605,
          entityName: 'Tesla, Inc.',
          facts: {
            'us-gaap': {
              Assets: { units: { USD: [{ end, val: 1e9, accn, fy: 2017, fp: 'FY', form: '10-K', filed }] } },
              // A fiscal-year duration ending on the same date makes that date a fiscal year end.
              Revenues: {
                units: {
                  USD: [{ start: startDay, end, val: 5e8, accn, fy: 2017, fp: 'FY', form: '10-K', filed }],
                },
              },
            },
          },
        }),
      );
      const sink = new CollectingSink();
      await ingestEdgarRawDir(dir, sink);
      expect(sink.warnings.filter((w) => w.code.startsWith('EDGAR_SUBMISSIONS'))).toEqual([]);
      const row = sink.observations.find((o) => o.series_id === 'edgar:0001318605:total-assets:A');
      expect(row).toBeDefined();
      const wall = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(acceptance)!;
      expect(row!.available_at).toBe(
        Math.max(zonedMicros(wall[1], wall[2], NY), zonedMicros(filed, '07:30', NY)),
      );
      expect(row!.available_at).toBeLessThan(isoToMicros(`${filed}T23:59:59-05:00`));
      expect(sink.inputs).toHaveLength(3);
    });
  },
);
