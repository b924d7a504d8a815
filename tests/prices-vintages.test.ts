import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, SHARED, scratchOut } from './helpers.ts';

const PRICES = join(SHARED, 'fixtures/real/prices');
const has = existsSync(PRICES);

describe.skipIf(!has)(
  'two Stooq downloads of AAPL as vintages (needs ../shared/fixtures/real/prices)',
  () => {
    const out = scratchOut('stooq-vintages');
    afterAll(() => removeOutput(out.abs));

    it('never shows the 2026 download as of 2019-06-01', async () => {
      // The raw folder is a temp copy: the build reads a directory, and the fixtures stay in ../shared.
      const raw = mkdtempSync(join(tmpdir(), 'asof-stooq-'));
      const files = {
        'stooq_aapl_us_d_1984-09-07_2019-05-03.csv': '2019-05-08',
        'stooq_aapl_us_d_1984-09-07_2026-01-09.csv': '2026-01-17',
      };
      for (const [name, date] of Object.entries(files)) {
        copyFileSync(join(PRICES, name), join(raw, name));
        writeFileSync(
          join(raw, `${name}.meta.json`),
          JSON.stringify({ symbol: 'AAPL', download_date: date }),
        );
      }
      const built = await asof('ingest', 'prices', '--raw-dir', raw, '--out', out.rel, '--json');
      expect(built.code, built.stderr).toBe(0);
      expect(JSON.parse(built.stdout).warnings.map((w: { code: string }) => w.code)).toContain(
        'PRICES_VENDOR_ADJUSTED',
      );

      const asOf2019 = await asof(
        'show',
        'pxadj:AAPL:close',
        '--data',
        out.rel,
        '--as-of',
        '2019-06-01',
        '--json',
      );
      expect(asOf2019.code, asOf2019.stderr).toBe(0);
      const rows2019 = JSON.parse(asOf2019.stdout) as {
        timestamp: string;
        value: number;
        available_at: string;
      }[];
      expect(rows2019.length).toBeGreaterThan(8000);
      for (const r of rows2019) expect(r.available_at < '2019-06-01T00:00:00Z').toBe(true);
      const may3 = rows2019.find((r) => r.timestamp.startsWith('2019-05-03'))!;
      expect(may3.value).toBeCloseTo(211.75, 2);

      const latest = await asof('show', 'pxadj:AAPL:close', '--data', out.rel, '--json');
      const may3Latest = (JSON.parse(latest.stdout) as { timestamp: string; value: number }[]).find((r) =>
        r.timestamp.startsWith('2019-05-03'),
      )!;
      // The 2026 download is split- and dividend-adjusted after the 2020 4:1 split: a different number.
      expect(may3Latest.value).toBeLessThan(60);
      // Issue 49: each download restates the whole vendor-adjusted history in another basis, so a target from
      // the 2026 download (72.01) would be scored against inputs from 2019's (211.75): never an eval target.
      const listed = await asof('series', '--data', out.rel, '--json');
      const flags = (JSON.parse(listed.stdout) as { series_id: string; eval_target: boolean }[]).filter((x) =>
        x.series_id.startsWith('pxadj:AAPL:'),
      );
      expect(flags.length).toBe(5);
      for (const x of flags) expect(x, x.series_id).toMatchObject({ eval_target: false });
      rmSync(raw, { recursive: true, force: true });
    });
  },
);
