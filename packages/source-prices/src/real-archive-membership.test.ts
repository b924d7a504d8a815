import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CollectingSink, type MembershipRow } from '@asof/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { indexChangeInstant, ingestMembershipCsv, parseMembershipFile } from './parse-membership-csv.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const DIR = join(repoRoot, '../shared/fixtures/real-archive/membership');
const SPANS = 'sp500_ticker_start_end_fja05680_2025-11-16.csv';
const CHANGES = 'sp500_changes_since_2019_fja05680_2025-11-16.csv';
const SNAP_2019 = 'sp500_constituents_wikipedia_fja05680_2019-11-16.csv';
const SNAP_2025 = 'sp500_constituents_wikipedia_fja05680_2025-11-16.csv';

/** Members at instant t from one file's rows, as known at t (per interval the latest version known then). */
function membersAt(rows: MembershipRow[], t: number): Set<string> {
  const latest = new Map<string, MembershipRow>();
  for (const r of rows) {
    if (r.available_at !== null && r.available_at > t) continue;
    const key = `${r.entity_id}|${r.from}`;
    const prev = latest.get(key);
    if (prev === undefined || (prev.available_at ?? -Infinity) < (r.available_at ?? -Infinity))
      latest.set(key, r);
  }
  const out = new Set<string>();
  for (const r of latest.values())
    if ((r.from === null || r.from <= t) && (r.to === null || t < r.to))
      out.add(r.entity_id.replace(/^ticker:/, ''));
  return out;
}
const ingest = (file: string) => {
  const sink = new CollectingSink();
  const r = ingestMembershipCsv(join(DIR, file), sink, file);
  return { sink, r };
};
const diff = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x)).sort();

describe.skipIf(!existsSync(DIR))(
  'real S&P 500 membership files (needs ../shared/fixtures/real-archive/membership)',
  () => {
    let spans: MembershipRow[];
    beforeAll(() => {
      spans = ingest(SPANS).sink.memberships;
    });

    it('detects each shape and accounts every row', () => {
      for (const [file, shape] of [
        [SPANS, 'ticker_spans'],
        [CHANGES, 'index_changes'],
        [SNAP_2019, 'constituents'],
        [SNAP_2025, 'constituents'],
      ] as const) {
        const { sink, r } = ingest(file);
        expect([file, r.shape, r.universes]).toEqual([file, shape, ['sp500']]);
        const lines =
          readFileSync(join(DIR, file), 'utf8')
            .split(/\r?\n/)
            .filter((l) => l.trim() !== '').length - 1;
        expect(sink.accounting).toEqual([
          { source: 'prices', file, record: 'row', read: lines, mapped: lines, dropped: {}, mappable: lines },
        ]);
      }
    });

    it('the span file on 2019-11-16 gives exactly the 505 constituents of the 2019-11-16 snapshot', () => {
      const t = indexChangeInstant('2019-11-18'); // after the weekend of the scrape, before any later change
      const snap = new Set(
        parseMembershipFile(readFileSync(join(DIR, SNAP_2019), 'utf8'), SNAP_2019).changes.map((c) =>
          c.entity_id.slice(7),
        ),
      );
      const members = membersAt(spans, t);
      expect([members.size, snap.size]).toEqual([505, 505]);
      expect([diff(members, snap), diff(snap, members)]).toEqual([[], []]);
    });

    it("the span file on 2025-11-16 differs from that day's snapshot by exactly the changes after its last one (2025-07-09)", () => {
      const t = indexChangeInstant('2025-11-17');
      const snap = new Set(
        parseMembershipFile(readFileSync(join(DIR, SNAP_2025), 'utf8'), SNAP_2025).changes.map((c) =>
          c.entity_id.slice(7),
        ),
      );
      const members = membersAt(spans, t);
      // The span file's newest spell starts 2025-07-09 (DDOG): every change of the changes file after that
      // date is missing from it. Each difference, with the change that explains it:
      const spanOnly = {
        ANSS: '2025-07-18 removed (Synopsys), TTD added',
        HES: '2025-07-23 removed (Chevron), XYZ added',
        PARA: '2025-08-08 removed, PSKY (Paramount Skydance) added',
        WBA: '2025-08-28 removed, IBKR added',
        MKTX: '2025-09-22 removed, APP/HOOD/EME added',
        CZR: '2025-09-22 removed',
        ENPH: '2025-09-22 removed',
        KMX: '2025-10-31 removed',
        EMN: '2025-11-04 removed',
        FI: '2025-11-11 ticker FI back to FISV (same company)',
      };
      const snapOnly = {
        TTD: '2025-07-18 added',
        XYZ: '2025-07-23 added (Block)',
        PSKY: '2025-08-08 added',
        IBKR: '2025-08-28 added',
        APP: '2025-09-22 added',
        HOOD: '2025-09-22 added',
        EME: '2025-09-22 added',
        SOLS: '2025-10-30 added (spin-off)',
        Q: '2025-11-03 added (Qnity; Q was Qwest 2000-2011 in the span file: a reused ticker)',
        FISV: '2025-11-11 FI renamed back to FISV',
      };
      expect([members.size, snap.size]).toEqual([503, 503]);
      expect(diff(members, snap)).toEqual(Object.keys(spanOnly).sort());
      expect(diff(snap, members)).toEqual(Object.keys(snapOnly).sort());
      // And the changes file's rows after 2025-07-09 explain every one of them.
      const changes = parseMembershipFile(readFileSync(join(DIR, CHANGES), 'utf8'), CHANGES).changes.filter(
        (c) => c.effective_date > '2025-07-09',
      );
      const added = changes
        .filter((c) => c.action === 'add')
        .map((c) => c.entity_id.slice(7))
        .sort();
      const removed = changes
        .filter((c) => c.action === 'remove')
        .map((c) => c.entity_id.slice(7))
        .sort();
      expect(added).toEqual(Object.keys(snapOnly).sort());
      expect(removed).toEqual(Object.keys(spanOnly).sort());
    });

    it('spans count from the effective date open: PCG out at 2019-01-18 09:30 New York, TFX in', () => {
      expect(membersAt(spans, indexChangeInstant('2019-01-18') - 1).has('PCG')).toBe(true);
      expect(membersAt(spans, indexChangeInstant('2019-01-18')).has('PCG')).toBe(false);
      expect(membersAt(spans, indexChangeInstant('2019-01-18')).has('TFX')).toBe(true);
    });
  },
);
