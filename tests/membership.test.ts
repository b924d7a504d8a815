import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { usTradingDays } from '@asof/calendar';
import { Duck, quoteLiteral } from '@asof/duck';
import { readManifest } from '@asof/manifest';
import type { Manifest } from '@asof/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, scratchOut } from './helpers.ts';

// Issue 20, point 4: point-in-time membership through build, split and FinTSB export. A small universe
// (eleven synthetic equities and an ETF, 2015–2021) plus a hand-made price file of GONE, a company whose
// bars stop on 2020-09-30, and an index membership file with one addition and two removals:
//   - syn:EQ0001 removed, announced 2020-06-15 (a date: 23:59:59 New York), effective 2020-07-01;
//   - syn:EQ0002 added, announced 2020-09-04T21:30:00Z (after the close), effective 2020-09-21;
//   - ticker:GONE removed (its delisting), announced 2020-09-24, effective 2020-10-01;
//   - ticker:NODATA, a member the universe holds no series of.
const work = scratchOut('membership-inputs');
const universe = scratchOut('membership-universe');
const split = scratchOut('membership-split');
const fintsb = scratchOut('membership-fintsb');
afterAll(() => {
  for (const d of [work, universe, split, fintsb]) removeOutput(d.abs);
});

const EQUITIES = ['0000', '0001', '0002', '0003', '0004', '0005', '0006', '0007', '0008', '0010', '0011'];
const CLOSE = 'Equity OHLCV Close';

async function all<T>(sql: string): Promise<T[]> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return (await duck.all(sql)) as T[];
  } finally {
    duck.close();
  }
}
const parquet = (dir: string, name: string) => `read_parquet(${quoteLiteral(join(dir, name))})`;

/** A Yahoo v7 history CSV of GONE: every US session 2015-01-02…2020-09-30, a deterministic walk. */
function goneCsv(): string {
  const lines = ['Date,Open,High,Low,Close,Adj Close,Volume'];
  let p = 50;
  for (const [i, d] of usTradingDays('2015-01-02', '2020-09-30').entries()) {
    p *= 1 + 0.012 * Math.sin(i * 0.7) + 0.004 * Math.cos(i * 1.9);
    const c = p.toFixed(4);
    lines.push(
      `${d},${c},${(p * 1.01).toFixed(4)},${(p * 0.99).toFixed(4)},${c},${c},${1000 + (i % 17) * 10}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

let manifest: Manifest;
let buildOutput = '';
beforeAll(async () => {
  mkdirSync(join(work.abs, 'prices'), { recursive: true });
  writeFileSync(
    join(work.abs, 'prices', 'yahoo_download_GONE_2015-01-02_2020-09-30_dl-2021-03-01.csv'),
    goneCsv(),
  );
  const rows = [
    'entity_id,universe,action,effective_date,announced,note',
    ...EQUITIES.filter((e) => e !== '0002').map((e) => `syn:EQ${e},syn11,add,2015-01-02,2015-01-02,initial`),
    'syn:EQ0001,syn11,remove,2020-07-01,2020-06-15,removal announced before it takes effect',
    'syn:EQ0002,syn11,add,2020-09-21,2020-09-04T21:30:00Z,replaces EQ0001',
    'ticker:GONE,syn11,add,2015-01-02,2015-01-02,initial',
    'ticker:GONE,syn11,remove,2020-10-01,2020-09-24,delisted',
    'ticker:NODATA,syn11,add,2015-01-02,2015-01-02,no history supplied',
  ];
  writeFileSync(join(work.abs, 'syn11.csv'), `${rows.join('\n')}\n`);
  const pipeline = join(work.abs, 'membership.json');
  writeFileSync(
    pipeline,
    JSON.stringify({
      name: 'membership',
      eval_start: '2020-01-01',
      sources: {
        embedded: { synthetic: { seed: 7, start: '2015-01-02', end: '2021-12-31', instruments: 12 } },
        prices: { raw_dir: join(work.abs, 'prices'), membership: [join(work.abs, 'syn11.csv')] },
      },
    }),
  );
  const r = await asof('build', pipeline, '--out', universe.rel);
  buildOutput = r.stdout + r.stderr;
  expect(r.code, r.stderr).toBe(0);
  manifest = readManifest(join(universe.abs, 'manifest.json'));
}, 120_000);

describe('point-in-time membership in the universe', () => {
  it('lists membership and member_spans and records which source each interval came from', async () => {
    expect(manifest.outputs.map((o) => o.table)).toEqual(
      expect.arrayContaining(['membership', 'member_spans']),
    );
    const m = await all<{ entity_id: string; source: string; n: bigint }>(
      `SELECT entity_id, source, count(*) AS n FROM ${parquet(universe.abs, 'membership.parquet')}
       WHERE entity_id IN ('syn:EQ0001', 'ticker:GONE') GROUP BY ALL ORDER BY ALL`,
    );
    expect(m.map((r) => [r.entity_id, r.source, Number(r.n)])).toEqual([
      ['syn:EQ0001', 'membership_csv', 2],
      ['ticker:GONE', 'membership_csv', 2],
      // GONE's price file: its first bar, and its last bar as known at the download of 2021-03-01.
      ['ticker:GONE', 'price_bars', 2],
    ]);
    expect(manifest.inputs.map((i) => i.source)).toContain('prices:membership');
  });

  it('makes named entities point_in_time, keeps the delisted company an eval target, and warns of a missing one', async () => {
    const s = await all<{ series_id: string; universe_kind: string; eval_target: boolean }>(
      `SELECT series_id, universe_kind, eval_target FROM ${parquet(universe.abs, 'series.parquet')}
       WHERE series_id IN ('px:GONE:close', 'syn:px:EQ0001:close', 'syn:px:ETF0009:close') ORDER BY series_id`,
    );
    expect(s).toEqual([
      // 188 sessions after eval_start, short of one 260-step horizon: kept because its entity left.
      { series_id: 'px:GONE:close', universe_kind: 'point_in_time', eval_target: true },
      { series_id: 'syn:px:EQ0001:close', universe_kind: 'point_in_time', eval_target: true },
      { series_id: 'syn:px:ETF0009:close', universe_kind: 'point_in_time', eval_target: true },
    ]);
    const codes = manifest.warnings.map((w) => w.code);
    expect(codes).toContain('MEMBERSHIP_WITHOUT_SERIES');
    expect(manifest.warnings.find((w) => w.code === 'MEMBERSHIP_WITHOUT_SERIES')?.message).toContain(
      'ticker:NODATA',
    );
    // Every entity series is point in time (named, or synthetic): no survivorship warning of its own.
    expect(codes).not.toContain('SURVIVORSHIP');
    expect(codes).not.toContain('EVAL_TARGET_TOO_SHORT');
    expect(buildOutput).toMatch(/membership of 13 entities in syn11/);
  });

  it("labels each segment's cross-section with its members when it formed (quota labels rank members only)", async () => {
    const g = await all<{
      series_id: string;
      segment: number;
      formed: string;
      member: boolean;
      q: bigint | null;
    }>(
      `SELECT series_id, segment, member, cross_section_size AS q
       FROM ${parquet(universe.abs, 'segments.parquet')}
       WHERE detail_category = '${CLOSE}' AND segment IN (20, 21, 22)
         AND series_id IN ('syn:px:EQ0001:close', 'syn:px:EQ0002:close', 'px:GONE:close')
       ORDER BY series_id, segment`,
    );
    // Segment 21 formed 2020-02-18, segment 22 on 2021-02-01. GONE's last segment ends with its bars.
    expect(g.map((r) => [r.series_id, r.segment, r.member])).toEqual([
      ['px:GONE:close', 20, true],
      ['syn:px:EQ0001:close', 20, true],
      ['syn:px:EQ0001:close', 21, true],
      ['syn:px:EQ0001:close', 22, false],
      ['syn:px:EQ0002:close', 20, false],
      ['syn:px:EQ0002:close', 21, false],
      ['syn:px:EQ0002:close', 22, true],
    ]);
    expect(g.filter((r) => !r.member).every((r) => r.q === null)).toBe(true);
    const sizes = await all<{ segment: number; n: number }>(
      `SELECT segment, max(cross_section_size)::INTEGER AS n FROM ${parquet(universe.abs, 'segments.parquet')}
       WHERE detail_category = '${CLOSE}' AND segment IN (20, 21, 22) GROUP BY segment ORDER BY segment`,
    );
    // 20: ten synthetic members and GONE; 21: EQ0002 not yet added, GONE's segment partial; 22: EQ0002 in, EQ0001 out.
    expect(sizes).toEqual([
      { segment: 20, n: 11 },
      { segment: 21, n: 10 },
      { segment: 22, n: 10 },
    ]);
  });
});

describe('point-in-time membership in a split and a FinTSB export', () => {
  const originsOf = async (series: string) =>
    (
      await all<{ o: string }>(
        `SELECT strftime(origin, '%Y-%m-%d') AS o FROM ${parquet(split.abs, 'origins.parquet')}
         WHERE series_id = '${series}' ORDER BY origin`,
      )
    ).map((r) => r.o);

  beforeAll(async () => {
    const r = await asof(
      'split',
      '--manifest',
      join(universe.rel, 'manifest.json'),
      '--out',
      split.rel,
      '--origins',
      'all',
      '--layout',
      'compact',
    );
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it('serves a removed company up to the announcement of its removal, not to the effective date', async () => {
    const o = await originsOf('syn:px:EQ0001:close');
    expect(o[0]).toBe('2020-01-02');
    expect(o.at(-1)).toBe('2020-06-15');
  });

  it('serves an added company from the announcement of its addition, not from the effective date', async () => {
    const o = await originsOf('syn:px:EQ0002:close');
    // Announced 2020-09-04 at 21:30Z, after that day's close: the first origin is the next session (the
    // 7th is Labor Day), two weeks before the effective date.
    expect(o[0]).toBe('2020-09-08');
    expect(o.at(-1)).toBe('2021-12-31');
  });

  it('keeps the delisted company in the cross-sections before its delisting and not after', async () => {
    const o = await originsOf('px:GONE:close');
    expect(o[0]).toBe('2020-01-02');
    // Removal announced 2020-09-24; its bars run on to 2020-09-30, but no origin after the announcement.
    expect(o.at(-1)).toBe('2020-09-24');
    const cross = await all<{ o: string; members: string[] }>(
      `SELECT strftime(origin, '%Y-%m-%d') AS o, list(series_id ORDER BY series_id) AS members
       FROM ${parquet(split.abs, 'origins.parquet')} AS g
       WHERE g.series_id LIKE '%:close' AND g.series_id NOT LIKE '%ETF%'
         AND strftime(origin, '%Y-%m-%d') IN ('2020-06-15', '2020-06-16', '2020-09-04', '2020-09-08', '2020-09-24', '2020-09-25')
       GROUP BY origin ORDER BY origin`,
    );
    const has = (day: string, id: string) => cross.find((c) => c.o === day)?.members.includes(id);
    expect(cross.map((c) => [c.o, c.members.length])).toEqual([
      ['2020-06-15', 11],
      ['2020-06-16', 10],
      ['2020-09-04', 10],
      ['2020-09-08', 11],
      ['2020-09-24', 11],
      ['2020-09-25', 10],
    ]);
    expect([has('2020-06-15', 'syn:px:EQ0001:close'), has('2020-06-16', 'syn:px:EQ0001:close')]).toEqual([
      true,
      false,
    ]);
    expect([has('2020-09-24', 'px:GONE:close'), has('2020-09-25', 'px:GONE:close')]).toEqual([true, false]);
    const m = readManifest(join(split.abs, 'manifest.json'));
    expect((m.summary as { origins_not_member_dropped: number }).origins_not_member_dropped).toBeGreaterThan(
      0,
    );
    expect(m.outputs.map((x) => x.table)).toContain('membership');
    expect(m.warnings).toEqual(manifest.warnings);
  });

  it("the FinTSB export draws a company's segments before its exit and none after", async () => {
    const r = await asof(
      'export',
      'fintsb',
      '--manifest',
      join(universe.rel, 'manifest.json'),
      '--out',
      fintsb.rel,
      '--labels',
      'threshold',
      '--datasets',
      '1',
    );
    expect(r.code, r.stderr).toBe(0);
    const members = await all<{ series_id: string; segment: number }>(
      `SELECT DISTINCT series_id, segment FROM ${parquet(fintsb.abs, 'members.parquet')} ORDER BY ALL`,
    );
    const segs = (id: string) => members.filter((m) => m.series_id === id).map((m) => m.segment);
    // Which segments a dataset draws depends on the (seeded) labels; the rule is that none is formed after
    // the exit (EQ0001: segment 22 formed 2021-02-01) or before the entry (EQ0002: segment 21).
    expect(segs('syn:px:EQ0001:close').every((s) => s <= 21)).toBe(true);
    expect(segs('syn:px:EQ0002:close').every((s) => s >= 22)).toBe(true);
    // With this seed both appear: EQ0001 in a segment formed before its removal was announced (it stays in
    // that cross-section), EQ0002 once it is a member.
    expect(segs('syn:px:EQ0001:close')).toEqual([21]);
    expect(segs('syn:px:EQ0002:close')).toEqual([22]);
    expect(readManifest(join(fintsb.abs, 'manifest.json')).warnings).toEqual(manifest.warnings);
  });
});
