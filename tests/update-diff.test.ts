import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SeriesDiff, UniverseDiff } from '@asof/diff';
import { Duck, quoteLiteral } from '@asof/duck';
import { canonicalJson, readManifest } from '@asof/manifest';
import type { Manifest } from '@asof/schema';
import { type InjectedChanges, writeSyntheticRawUniverse } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, SHARED } from './helpers.ts';

// Acceptance tests of issue 22 (docs/decisions/0022-incremental-update.md): update(build(t1), raw(t2)) is
// build(raw(t2)) byte for byte; a second update is a no-op; diff lists exactly what t2 injected.
const work = mkdtempSync(join(tmpdir(), 'asof-update-'));
const shape = { instruments: 4, companies: 4, fredSeries: 4 };
let injected: InjectedChanges;

const run = async (...argv: string[]) => {
  const r = await asofIn(work, ...argv);
  expect(r.code, r.stderr).toBe(0);
  return r;
};
const manifestOf = (dir: string) => readManifest(join(work, dir, 'manifest.json'));
/** The manifest without the fields an update may differ in: its id and the parent pointer. */
const body = (m: Manifest) => {
  const { dataset_id: _d, parent_dataset_id: _p, ...rest } = m;
  return canonicalJson(rest);
};

beforeAll(async () => {
  writeSyntheticRawUniverse(join(work, 't1'), { stage: 1, ...shape });
  injected = writeSyntheticRawUniverse(join(work, 't2'), { stage: 2, ...shape });
  // t3: t1 with only the new price downloads of t2 (EDGAR and ALFRED files as in t1).
  cpSync(join(work, 't1'), join(work, 't3'), { recursive: true });
  cpSync(join(work, 't2', 'prices'), join(work, 't3', 'prices'), { recursive: true });
  await run('build', 't1/pipeline.json', '--out', 'b1');
  await run('build', 't2/pipeline.json', '--out', 'b2');
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('asof update', () => {
  it('update(build(t1), raw(t2)) is build(raw(t2)) byte for byte, with the parent pointer', async () => {
    const r = await run(
      'update',
      '--manifest',
      'b1/manifest.json',
      't2/pipeline.json',
      '--out',
      'u',
      '--json',
    );
    const out = JSON.parse(r.stdout);
    expect(out.status).toBe('updated');
    // The new price downloads were appended, not every download read again.
    const appended = out.steps.filter((s: { action: string }) => s.action === 'appended');
    expect(appended.map((s: { part: string }) => s.part)).toEqual(
      [0, 1, 2, 3].map((i) => `prices RAW000${i}`),
    );
    // EDGAR per company: the new filer, the restating and the delisted company are read again, one reused.
    const reread = [injected.newFilerCiks[0], injected.edgarRestatement.cik, injected.delisted.cik].sort();
    expect(out.steps).toContainEqual({
      part: 'edgar',
      action: 'read again',
      detail: `3 companies: ${reread.join(', ')}`,
    });
    expect(out.steps).toContainEqual({ part: 'edgar', action: 'reused', detail: '1 company' });
    expect(r.stderr).toMatch(/next: asof diff /);
    const built = manifestOf('b2');
    const updated = manifestOf('u');
    expect(updated.parent_dataset_id).toBe(manifestOf('b1').dataset_id);
    expect(built.parent_dataset_id).toBeNull();
    expect(updated.outputs.map((o) => [o.path, o.sha256])).toEqual(
      built.outputs.map((o) => [o.path, o.sha256]),
    );
    // The tables in a build's order, membership among them.
    expect(updated.outputs.filter((o) => o.table !== 'observations').map((o) => o.path)).toEqual([
      'series.parquet',
      'tasks.parquet',
      'corporate_actions.parquet',
      'membership.parquet',
      'member_spans.parquet',
      'segments.parquet',
    ]);
    expect(body(updated)).toBe(body(built));
    expect(updated.warnings.map((w) => w.code)).toContain('MEMBERSHIP_WITHOUT_SERIES');
    const verified = await run('verify', 'u/manifest.json');
    expect(verified.stdout).toMatch(/^ok: /);
  }, 600_000);

  it('carries membership over and recomputes it where its sources changed (all three sources present)', async () => {
    const rows = async (dir: string) => {
      const duck = await Duck.open({ threads: 1 });
      try {
        return await duck.all<{ entity_id: string; source: string; to: string | null; available_at: string }>(
          `SELECT entity_id, source, CAST("to" AS VARCHAR) AS "to", CAST(available_at AS VARCHAR) AS available_at
           FROM read_parquet(${quoteLiteral(join(work, dir, 'membership.parquet'))}) ORDER BY ALL`,
        );
      } finally {
        duck.close();
      }
    };
    const [b1, b2, u] = [await rows('b1'), await rows('b2'), await rows('u')];
    expect(u).toEqual(b2);
    expect(new Set(b2.map((r) => r.source))).toEqual(
      new Set(['price_bars', 'edgar_submissions', 'membership_csv']),
    );
    // The Form 25 closes the delisted company's listing in t2 only; the other registrant's rows are OLD's.
    const edgar = (list: typeof b1, cik: string) =>
      list.filter((r) => r.source === 'edgar_submissions' && r.entity_id === cik);
    expect(edgar(b1, injected.delisted.cik).filter((r) => r.to !== null)).toEqual([]);
    expect(edgar(b2, injected.delisted.cik).filter((r) => r.to !== null)).toHaveLength(1);
    // Appended instruments: their listing span closes after the new last bar, known at the new download.
    const closing = (list: typeof b1) =>
      list.filter((r) => r.source === 'price_bars' && r.entity_id === 'ticker:RAW0001' && r.to !== null);
    expect(closing(b1)).toHaveLength(1);
    expect(closing(b2)).toHaveLength(1);
    expect(closing(b2)[0].to! > closing(b1)[0].to!).toBe(true);
    expect(closing(b2)[0].available_at.startsWith(injected.newSessions.at(-1)!.slice(0, 7))).toBe(true);
  });

  it('reads the prices again when an index membership file changed, and still equals a build', async () => {
    // t5: t2 with one more index change (instrument 3 added in 2020).
    cpSync(join(work, 't2'), join(work, 't5'), { recursive: true });
    const csv = join(work, 't5', 'membership', 'index.csv');
    writeFileSync(csv, `${readFileSync(csv, 'utf8')}ticker:RAW0003,rawidx,add,2020-03-02,2020-02-20\n`);
    await run('build', 't5/pipeline.json', '--out', 'b5');
    const r = await run(
      'update',
      '--manifest',
      'u/manifest.json',
      't5/pipeline.json',
      '--out',
      'u5',
      '--json',
    );
    expect(JSON.parse(r.stdout).steps).toContainEqual({
      part: 'prices',
      action: 'read again',
      detail: 'a membership file changed',
    });
    expect(body(manifestOf('u5'))).toBe(body(manifestOf('b5')));
    // No observation changed, but RAW0003 is now a member only from its announcement: the segments of its
    // series formed before are no members (their labels are OLD's no more), so segments are recomputed.
    const segments = (dir: string) => manifestOf(dir).outputs.find((o) => o.table === 'segments')!.sha256;
    expect(segments('b5')).not.toBe(segments('b2'));
    const obs = (dir: string) =>
      manifestOf(dir)
        .outputs.filter((o) => o.table === 'observations')
        .map((o) => o.sha256);
    expect(obs('b5')).toEqual(obs('b2'));
  }, 600_000);

  it('a second update with nothing new is a no-op that says so and writes nothing', async () => {
    const r = await run('update', '--manifest', 'u/manifest.json', 't2/pipeline.json', '--out', 'u2');
    expect(r.stdout).toMatch(
      /^up to date: nothing new since [0-9a-f]{12}: every raw input is the one it was built from; nothing written/,
    );
    expect(existsSync(join(work, 'u2'))).toBe(false);
  }, 300_000);

  it('links the partitions nothing changed in (same inode) and still equals a build', async () => {
    await run('build', 't3/pipeline.json', '--out', 'b3');
    const r = await run(
      'update',
      '--manifest',
      'b1/manifest.json',
      't3/pipeline.json',
      '--out',
      'u3',
      '--json',
    );
    const out = JSON.parse(r.stdout);
    expect(out.linked.sort()).toEqual([
      'observations/frequency=A/data.parquet',
      'observations/frequency=M/data.parquet',
      'observations/frequency=Q/data.parquet',
    ]);
    for (const path of out.linked)
      expect(statSync(join(work, 'u3', path)).ino, path).toBe(statSync(join(work, 'b1', path)).ino);
    expect(
      out.steps.filter((s: { action: string }) => s.action === 'reused').map((s: { part: string }) => s.part),
    ).toEqual(expect.arrayContaining(['edgar', 'fred']));
    expect(body(manifestOf('u3'))).toBe(body(manifestOf('b3')));
  }, 600_000);

  it('reads an instrument again when a new download cannot be appended, and still equals a build', async () => {
    // t4: t2 with one new download that records no download time (no sidecar, no date in its name):
    // its instant is assumed from the file, so RAW0001 is read again in full.
    cpSync(join(work, 't2'), join(work, 't4'), { recursive: true });
    const prices = join(work, 't4', 'prices');
    const file = readdirSync(prices).find((n) => /^RAW0001_dl-2024-06-29\.json$/.test(n))!;
    rmSync(join(prices, `${file}.meta.json`));
    renameSync(join(prices, file), join(prices, 'RAW0001_window.json'));
    await run('build', 't4/pipeline.json', '--out', 'b4');
    const r = await run(
      'update',
      '--manifest',
      'b1/manifest.json',
      't4/pipeline.json',
      '--out',
      'u4',
      '--json',
    );
    const steps = JSON.parse(r.stdout).steps as { part: string; action: string }[];
    expect(steps.find((s) => s.part === 'prices RAW0001')?.action).toBe('read again');
    expect(steps.find((s) => s.part === 'prices RAW0002')?.action).toBe('appended');
    expect(body(manifestOf('u4'))).toBe(body(manifestOf('b4')));
  }, 600_000);

  it('reads a company again when only its listing changed (a Form 25), and equals a build', async () => {
    // t6: t1 with one company's listing ended by a Form 25 in 2019: no observation changes, its membership
    // and member spans (and whether its series are members of cross-sections formed since) do.
    cpSync(join(work, 't1'), join(work, 't6'), { recursive: true });
    const edgar = join(work, 't6', 'edgar');
    const name = readdirSync(edgar).find((n) => n.startsWith(`submissions_CIK${injected.delisted.cik}_`))!;
    const subs = JSON.parse(readFileSync(join(edgar, name), 'utf8'));
    const recent = subs.filings.recent as Record<string, unknown[]>;
    const listing = recent.form.indexOf('8-A12B');
    for (const k of Object.keys(recent)) recent[k] = [recent[k][listing], ...recent[k]];
    Object.assign(recent, {
      accessionNumber: [`${injected.delisted.cik}-19-800003`, ...recent.accessionNumber.slice(1)],
      filingDate: ['2019-06-14', ...recent.filingDate.slice(1)],
      acceptanceDateTime: ['2019-06-14T16:05:00.000Z', ...recent.acceptanceDateTime.slice(1)],
      form: ['25', ...recent.form.slice(1)],
      core_type: ['25', ...recent.core_type.slice(1)],
    });
    writeFileSync(join(edgar, name), `${JSON.stringify(subs)}\n`);
    await run('build', 't6/pipeline.json', '--out', 'b6');
    const sha = (dir: string, table: string) =>
      manifestOf(dir).outputs.find((o) => o.table === table)!.sha256;
    expect(sha('b6', 'membership')).not.toBe(sha('b1', 'membership'));
    expect(sha('b6', 'member_spans')).not.toBe(sha('b1', 'member_spans'));
    const r = await run(
      'update',
      '--manifest',
      'b1/manifest.json',
      't6/pipeline.json',
      '--out',
      'u6',
      '--json',
    );
    expect(JSON.parse(r.stdout).steps).toContainEqual({
      part: 'edgar',
      action: 'read again',
      detail: `1 company: ${injected.delisted.cik}`,
    });
    expect(JSON.parse(r.stdout).linked.length).toBeGreaterThan(0);
    expect(body(manifestOf('u6'))).toBe(body(manifestOf('b6')));
  }, 600_000);
});

describe('asof update refuses bad input and unsafe outputs: exit 2, one line, nothing written', () => {
  /** Runs an update expected to fail; the error is the last line of stderr, the only one not a log line. */
  const refusedWith = async (code: number, ...argv: string[]) => {
    const r = await asofIn(work, 'update', ...argv);
    expect(r.code, r.stderr).toBe(code);
    const lines = r.stderr.trim().split('\n');
    const errors = lines.filter((l) => !/^asof update: \[[\d.]+s\]/.test(l) && !l.startsWith('  '));
    expect(errors, r.stderr).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    return errors[0];
  };
  const refused = (...argv: string[]) => refusedWith(2, ...argv);

  it('a manifest that is not a universe', async () => {
    await run(
      'split',
      '--manifest',
      'b1/manifest.json',
      '--out',
      's1',
      '--model-cutoff',
      '2021-12-31',
      '--run-date',
      '2025-12-31',
    );
    const line = await refused('--manifest', 's1/manifest.json', 't2/pipeline.json', '--out', 'bad-kind');
    expect(line).toMatch(/s1\/manifest\.json: manifest kind is 'split'; asof update takes a universe/);
    expect(existsSync(join(work, 'bad-kind'))).toBe(false);
  }, 300_000);

  // Exit 1, as every reader of a manifest whose listed file changed (tests/verified-reads.test.ts, asof verify).
  it('an OLD whose files no longer match its manifest (exit 1, naming the file)', async () => {
    cpSync(join(work, 'b1'), join(work, 'b1-tampered'), { recursive: true, dereference: true });
    const file = join(work, 'b1-tampered', 'series.parquet');
    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(file, bytes);
    const line = await refusedWith(
      1,
      '--manifest',
      'b1-tampered/manifest.json',
      't2/pipeline.json',
      '--out',
      'bad-old',
    );
    expect(line).toMatch(/series\.parquet/);
    expect(existsSync(join(work, 'bad-old'))).toBe(false);
  });

  it('a missing manifest, a file that is no manifest, and no --out', async () => {
    expect(await refused('--manifest', 't2/pipeline.json', 't2/pipeline.json', '--out', 'bad-json')).toMatch(
      /t2\/pipeline\.json/,
    );
    expect(
      await refused('--manifest', 'nowhere/manifest.json', 't2/pipeline.json', '--out', 'bad-missing'),
    ).toMatch(/nowhere\/manifest\.json/);
    expect(await refused('--manifest', 'b1/manifest.json', 't2/pipeline.json')).toMatch(/--out NEW/);
  });

  it('--out follows the output-safety rules (a user folder, OLD itself, a raw folder it reads)', async () => {
    const user = join(work, 'user-notes');
    mkdirSync(user, { recursive: true });
    writeFileSync(join(user, 'notes.txt'), 'mine\n');
    expect(
      await refused('--manifest', 'b1/manifest.json', 't2/pipeline.json', '--out', 'user-notes'),
    ).toMatch(/--out .*user-notes.* asof replaces only/);
    expect(readFileSync(join(user, 'notes.txt'), 'utf8')).toBe('mine\n');
    const before = manifestOf('b1').dataset_id;
    expect(await refused('--manifest', 'b1/manifest.json', 't2/pipeline.json', '--out', 'b1')).toMatch(
      /--out .*b1.* which this command reads/,
    );
    expect(manifestOf('b1').dataset_id).toBe(before);
    expect(
      await refused('--manifest', 'b1/manifest.json', 't2/pipeline.json', '--out', 't2/prices/new'),
    ).toMatch(/which this command reads/);
    expect(existsSync(join(work, 't2', 'prices', 'new'))).toBe(false);
  });
});

describe('asof diff between the t1 and t2 builds', () => {
  let diff: UniverseDiff;
  beforeAll(async () => {
    const r = await run('diff', 'b1/manifest.json', 'b2/manifest.json', '--json', '--limit', '0');
    diff = JSON.parse(r.stdout);
  });
  const bySource = (pred: (s: SeriesDiff) => boolean) => diff.series.filter(pred);

  it('lists the new instrument as new series and nothing as removed', () => {
    expect(diff.series.filter((s) => s.status === 'new').map((s) => s.series_id)).toEqual(
      ['close', 'high', 'low', 'open', 'volume'].map((f) => `px:${injected.newInstrument}:${f}`),
    );
    expect(diff.series.filter((s) => s.status === 'removed')).toEqual([]);
    expect(diff.totals.rewritten).toBe(0);
  });

  it('lists the new bars and the one silently changed past close, nothing else of prices', () => {
    const prices = bySource((s) => s.series_id.startsWith('px:') && s.status === 'changed');
    expect(prices).toHaveLength(4 * 5);
    for (const s of prices) {
      expect(s.counts.new_observations, s.series_id).toBe(injected.newSessions.length);
      expect(s.counts.revisions + s.counts.withdrawals + s.counts.rewritten, s.series_id).toBe(0);
    }
    const restated = prices.filter((s) => s.counts.restatements > 0);
    expect(restated.map((s) => [s.series_id, s.counts.restatements])).toEqual([
      [injected.restatedBar.seriesId, 1],
    ]);
    const r = restated[0].changes.restatement![0];
    expect([r.period, r.old_value, r.new_value]).toEqual([
      injected.restatedBar.date,
      injected.restatedBar.from,
      injected.restatedBar.to,
    ]);
    expect(r.new_available_at! > r.old_available_at!).toBe(true);
  });

  it('lists the restated filing as a revision (old → new with both available_at) and the new filer’s new periods', () => {
    const edgar = bySource((s) => s.series_id.startsWith('edgar:'));
    const revised = edgar.filter((s) => s.counts.revisions > 0);
    expect(revised.map((s) => s.series_id)).toEqual([`edgar:${injected.edgarRestatement.cik}:net-income:A`]);
    const rev = revised[0].changes.revision!;
    expect(rev.map((c) => [c.old_value, c.new_value])).toEqual([
      [injected.edgarRestatement.from, injected.edgarRestatement.to],
    ]);
    expect(rev[0].new_available_at!.startsWith(injected.edgarRestatement.filed)).toBe(true);
    expect(rev[0].old_available_at! < rev[0].new_available_at!).toBe(true);
    const grown = edgar.filter((s) => s.counts.new_observations > 0);
    expect(grown.length).toBeGreaterThan(10);
    for (const s of grown)
      expect(
        injected.newFilerCiks.some((c) => s.series_id.startsWith(`edgar:${c}:`)),
        s.series_id,
      ).toBe(true);
    for (const s of edgar) expect(s.counts.restatements + s.counts.withdrawals + s.counts.rewritten).toBe(0);
  });

  it('lists the ALFRED revision, the new period and the withdrawal, nothing else of FRED', () => {
    const fred = bySource((s) => s.series_id.startsWith('fred:'));
    const { alfredRevision: rev, alfredNewPeriod: np, alfredWithdrawal: wd } = injected;
    const one = (kind: 'revision' | 'withdrawal' | 'new_observation') =>
      fred.flatMap((s) => (s.changes[kind] ?? []).map((c) => ({ series_id: s.series_id, ...c })));
    expect(one('revision').map((c) => [c.series_id, c.period, c.old_value, c.new_value])).toEqual([
      [rev.seriesId, rev.date.slice(0, 7), Number(rev.from), Number(rev.to)],
    ]);
    expect(one('new_observation').map((c) => [c.series_id, c.period, c.new_value])).toEqual([
      [np.seriesId, np.date.slice(0, 7), Number(np.value)],
    ]);
    expect(one('withdrawal').map((c) => [c.series_id, c.period, c.new_value])).toEqual([
      [wd.seriesId, wd.date.slice(0, 7), null],
    ]);
    expect(fred.reduce((n, s) => n + s.counts.restatements + s.counts.rewritten, 0)).toBe(0);
  });

  it('the newer build warns about the restatement, naming the download, with its count', () => {
    const w = manifestOf('b2').warnings.filter((x) => x.code === 'VENDOR_RESTATED');
    expect(w).toHaveLength(1);
    expect(w[0].count).toBe(1);
    expect(w[0].message).toMatch(
      /^RAW0000_dl-2024-06-29\.json: this later download changed 1 value\(s\) of 1 series/,
    );
    expect(manifestOf('b1').warnings.some((x) => x.code === 'VENDOR_RESTATED')).toBe(false);
  });

  it('prints a table per source and the changed series with their values', async () => {
    const r = await run('diff', 'b1', 'b2', '--series', 'px:RAW0000:*', '--series', 'fred:*');
    expect(r.stdout).toMatch(/^diff b1 \([0-9a-f]{12}\) → b2 \([0-9a-f]{12}\), series px:RAW0000:\* fred:\*/);
    expect(r.stdout).toContain(
      `restated without a vintage ${injected.restatedBar.date}: ${injected.restatedBar.from} (available `,
    );
    expect(r.stdout).not.toContain('edgar:');
    expect(r.stderr).toMatch(/next: asof show /);
  });
});

const PRICES = join(SHARED, 'fixtures/real/prices');
const FRED = join(SHARED, 'fixtures/real/fred');

/** Two raw folders: the older download alone (r1), then both (r2), each with a dated sidecar. */
function realPair(kind: 'prices', files: Record<string, string>, from: string): string {
  const dir = join(work, `real-${kind}`);
  for (const [stage, names] of [
    ['r1', Object.keys(files).slice(0, 1)],
    ['r2', Object.keys(files)],
  ] as const) {
    mkdirSync(join(dir, stage, kind), { recursive: true });
    for (const name of names) {
      cpSync(join(from, name), join(dir, stage, kind, name));
      writeFileSync(
        join(dir, stage, kind, `${name}.meta.json`),
        JSON.stringify({ symbol: 'AAPL', download_date: files[name] }),
      );
    }
    writeFileSync(
      join(dir, stage, 'pipeline.json'),
      JSON.stringify({ name: `real-${kind}`, sources: { [kind]: { raw_dir: kind } } }),
    );
  }
  return dir;
}

/** Closes per date of a Stooq CSV (Date,Open,High,Low,Close,Volume). */
function stooqCloses(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/).slice(1)) {
    const cells = line.split(',');
    if (cells.length >= 5 && cells[4] !== '') out.set(cells[0], Number(cells[4]));
  }
  return out;
}

describe.skipIf(!existsSync(PRICES))(
  'asof diff and update on the two real Stooq AAPL downloads (needs ../shared)',
  () => {
    const older = 'stooq_aapl_us_d_1984-09-07_2019-05-03.csv';
    const newer = 'stooq_aapl_us_d_1984-09-07_2026-01-09.csv';

    it('reports the restated bars with counts, and the update equals the build', async () => {
      const dir = realPair('prices', { [older]: '2019-05-08', [newer]: '2026-01-17' }, PRICES);
      await run('build', join(dir, 'r1/pipeline.json'), '--out', join(dir, 'b1'));
      await run('build', join(dir, 'r2/pipeline.json'), '--out', join(dir, 'b2'));
      const r = await run('diff', join(dir, 'b1'), join(dir, 'b2'), '--json');
      const diff = JSON.parse(r.stdout) as UniverseDiff;
      // Independently of asof: the dates both files hold whose close differs beyond the 1e-6 tolerance,
      // but 1985-09-27: both files hold a bar for it, while the NYSE was closed (Hurricane Gloria), so the
      // US session calendar drops it.
      const closed = '1985-09-27';
      const a = stooqCloses(join(PRICES, older));
      const b = stooqCloses(join(PRICES, newer));
      expect(a.has(closed) && b.has(closed)).toBe(true);
      a.delete(closed);
      b.delete(closed);
      let expected = 0;
      for (const [date, v] of a) {
        const w = b.get(date);
        if (w !== undefined && Math.abs(v - w) > 1e-6 * Math.max(Math.abs(v), Math.abs(w))) expected++;
      }
      expect(expected).toBeGreaterThan(8000);
      const close = diff.series.find((s) => s.series_id === 'pxadj:AAPL:close')!;
      expect(close.counts.restatements).toBe(expected);
      expect(close.counts.revisions + close.counts.rewritten).toBe(0);
      expect(close.counts.new_observations).toBe([...b.keys()].filter((d) => !a.has(d)).length);
      expect(diff.sources.find((s) => s.source === 'stooq')!.restatements).toBeGreaterThan(expected);
      const warning = manifestOfAbs(join(dir, 'b2')).warnings.find((w) => w.code === 'VENDOR_RESTATED')!;
      expect(warning.message.startsWith(`${newer}: this later download changed`)).toBe(true);
      expect(warning.count).toBe(diff.sources.find((s) => s.source === 'stooq')!.restatements);
      const all = await run(
        'diff',
        join(dir, 'b1'),
        join(dir, 'b2'),
        '--series',
        'pxadj:AAPL:close',
        '--limit',
        '0',
        '--json',
      );
      const listed = (JSON.parse(all.stdout) as UniverseDiff).series[0].changes.restatement!;
      expect(listed).toHaveLength(expected);
      const may3 = listed.find((c) => c.period === '2019-05-03')!;
      // Before the 2020 4:1 split and the later dividends, after them (PROVENANCE.md).
      expect([may3.old_value, may3.new_value]).toEqual([211.75, 50.7228]);
      // The newer build's report has the Vendor restatements section with the series and its count.
      await run('report', '--manifest', join(dir, 'b2/manifest.json'), '--out', join(dir, 'report.html'));
      const html = readFileSync(join(dir, 'report.html'), 'utf8');
      expect(html).toContain('Vendor restatements');
      expect(html).toMatch(/values of 5 series were changed by a later download/);
      expect(html).toContain('pxadj:AAPL:close');
      expect(html).toContain(expected.toLocaleString('en-US'));
      const text = await run('diff', join(dir, 'b1'), join(dir, 'b2'), '--series', 'pxadj:AAPL:close');
      expect(text.stdout).toMatch(/restated without a vintage \d{4}-\d{2}-\d{2}: [\d.]+ \(available /);
      expect(text.stdout).toContain(`${expected} restatement(s) without a vintage`);

      const u = await run(
        'update',
        '--manifest',
        join(dir, 'b1/manifest.json'),
        join(dir, 'r2/pipeline.json'),
        '--out',
        join(dir, 'u'),
        '--json',
      );
      expect(JSON.parse(u.stdout).steps).toContainEqual({
        part: 'prices AAPL',
        action: 'appended',
        detail: newer,
      });
      expect(body(manifestOfAbs(join(dir, 'u')))).toBe(body(manifestOfAbs(join(dir, 'b2'))));
    }, 600_000);
  },
);

describe.skipIf(!existsSync(FRED))(
  'asof diff on the real fredgraph 2017-04 / 2017-06 downloads (needs ../shared)',
  () => {
    it('reports the two PAYEMS values the later download restated', async () => {
      const dir = join(work, 'real-fred');
      for (const [stage, months] of [
        ['r1', ['2017-04']],
        ['r2', ['2017-04', '2017-06']],
      ] as const) {
        mkdirSync(join(dir, stage, 'fred'), { recursive: true });
        for (const m of months)
          cpSync(
            join(FRED, `fredgraph_legacy_PAYEMS_vintage_${m}.csv`),
            join(dir, stage, 'fred', `fredgraph_legacy_PAYEMS_vintage_${m}.csv`),
          );
        writeFileSync(
          join(dir, stage, 'pipeline.json'),
          JSON.stringify({ name: 'real-fred', sources: { fred: { raw_dir: 'fred' } } }),
        );
      }
      await run('build', join(dir, 'r1/pipeline.json'), '--out', join(dir, 'b1'));
      await run('build', join(dir, 'r2/pipeline.json'), '--out', join(dir, 'b2'));
      const r = await run('diff', join(dir, 'b1'), join(dir, 'b2'), '--json');
      const payems = (JSON.parse(r.stdout) as UniverseDiff).series.find(
        (s) => s.series_id === 'fred:PAYEMS',
      )!;
      expect(payems.changes.restatement!.map((c) => [c.period, c.old_value, c.new_value])).toEqual([
        ['2017-02', 145760, 145773],
        ['2017-03', 145858, 145823],
      ]);
      expect(payems.counts.new_observations).toBe(2);
      expect(payems.counts.revisions + payems.counts.rewritten + payems.counts.withdrawals).toBe(0);
      const w = manifestOfAbs(join(dir, 'b2')).warnings.find((x) => x.code === 'VENDOR_RESTATED')!;
      expect(w.count).toBe(2);
      expect(w.message).toMatch(
        /^fredgraph_legacy_PAYEMS_vintage_2017-06\.csv: this later download changed 2 value/,
      );
    }, 300_000);
  },
);

function manifestOfAbs(dir: string): Manifest {
  return readManifest(join(dir, 'manifest.json'));
}
