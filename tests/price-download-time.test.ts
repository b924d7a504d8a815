import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asof, SHARED, scratchOut } from './helpers.ts';

// Issue 15, the look-ahead case: a price file's download time is its latest bar date, not its last row,
// so the order of rows cannot make vendor-adjusted values available earlier.
const raw = mkdtempSync(join(tmpdir(), 'asof-dl-order-'));
const outs: string[] = [];
afterAll(() => {
  rmSync(raw, { recursive: true, force: true });
  for (const abs of outs) {
    rmSync(abs, { recursive: true, force: true });
    rmSync(join(dirname(abs), '.asof', basename(abs)), { recursive: true, force: true });
  }
});

type Row = { timestamp: string; available_at: string; value: number };

/** Ingests `lines` (a Stooq file's data lines) as `<sym>_us_d.csv` and returns the close series' rows. */
async function closeRows(tag: string, file: string, header: string, lines: string[]): Promise<Row[]> {
  const dir = join(raw, tag);
  mkdirSync(dir);
  writeFileSync(join(dir, file), `${header}\r\n${lines.join('\r\n')}\r\n`);
  const out = scratchOut(`dl-order-${tag}`);
  outs.push(out.abs);
  const ing = await asof('ingest', 'prices', '--raw-dir', dir, '--out', out.rel);
  expect(ing.code, ing.stderr).toBe(0);
  const sym = file.split('_us_d')[0].split('_').at(-1)!.toUpperCase();
  const show = await asof('show', `pxadj:${sym}:close`, '--data', out.rel, '--json');
  expect(show.code, show.stderr).toBe(0);
  return JSON.parse(show.stdout);
}

/** Forwards, newest first, and with one older row appended: the same available_at for every bar. */
async function expectOrderIrrelevant(tag: string, file: string, text: string): Promise<Row[]> {
  const [header, ...lines] = text.split(/\r?\n/).filter(Boolean);
  const forwards = await closeRows(`${tag}-fwd`, file, header, lines);
  const reversed = await closeRows(`${tag}-rev`, file, header, [...lines].reverse());
  const appended = await closeRows(`${tag}-app`, file, header, [...lines, lines[1]]);
  expect(forwards.length).toBeGreaterThan(0);
  const key = (rows: Row[]) => rows.map((r) => [r.timestamp, r.available_at, r.value]);
  expect(key(reversed)).toEqual(key(forwards));
  expect(key(appended)).toEqual(key(forwards));
  return forwards;
}

describe('price download time from the latest bar, whatever the row order', () => {
  it('a hand-made Stooq file: every bar available at the end of the newest bar day', async () => {
    const text = [
      'Date,Open,High,Low,Close,Volume',
      '2021-03-01,10,11,9,10.5,100',
      '2021-03-02,10.5,11,10,10.8,120',
      '2021-03-03,10.8,11.2,10.1,11,90',
      '2021-03-04,11,11.5,10.9,11.2,110',
    ].join('\n');
    const rows = await expectOrderIrrelevant('hand', 'abc_us_d.csv', text);
    expect(rows).toHaveLength(4);
    // 2021-03-04 23:59:59.999999 New York: nothing is available before the newest bar's day ends.
    expect(new Set(rows.map((r) => r.available_at))).toEqual(new Set(['2021-03-05T04:59:59.999999Z']));
  }, 120_000);

  const real = join(SHARED, 'fixtures/real/prices/stooq_aapl_us_d_1984-09-07_2019-05-03.csv');
  it.skipIf(!existsSync(real))(
    'the real Stooq AAPL file (needs ../shared/fixtures/real)',
    async () => {
      const rows = await expectOrderIrrelevant('aapl', 'stooq_aapl_us_d.csv', readFileSync(real, 'utf8'));
      expect(rows.length).toBeGreaterThan(8000);
      expect(rows.every((r) => r.available_at >= '2019-05-04T03:59:59.999999Z')).toBe(true);
    },
    300_000,
  );
});
