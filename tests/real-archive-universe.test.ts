import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestAccounting } from '@asof/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asof, SHARED } from './helpers.ts';

// Issue 49: one universe from every real archive of ../shared (old and new companyfacts downloads, FRED-MD
// and RTDSM vintages, Lean/Quandl/zipline/Yahoo/Stooq prices, S&P 500 membership) and the older real/
// fixtures, taken through split, baselines, score and report as a researcher would. The per-format checks
// (the vintage property, exact vintage views, Lean factors, the zipline trap, membership snapshots) live beside
// each source; this test checks that they hold together.
const ARCHIVE = join(SHARED, 'fixtures/real-archive');
const REAL = join(SHARED, 'fixtures/real');
const have = existsSync(ARCHIVE) && existsSync(REAL);

interface Manifest {
  inputs: { source: string; key: string }[];
  warnings: { code: string; message: string }[];
  summary: { series: number; eval_targets: number; ingest_accounting: IngestAccounting[] };
}

/** A folder of links to every entry of `sources` (files and Lean's subfolders alike; nothing is copied). */
function linkFolder(dir: string, sources: string[]): string {
  mkdirSync(dir, { recursive: true });
  for (const src of sources)
    for (const name of readdirSync(src)) symlinkSync(join(src, name), join(dir, name));
  return dir;
}

describe.skipIf(!have)(
  'a universe from every real archive (needs ../shared/fixtures/real-archive and real)',
  () => {
    let tmp: string;
    let manifest: Manifest;
    let buildLog: string;
    const data = () => join(tmp, 'universe');

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'asof-real-archive-'));
      const pipeline = {
        name: 'real-archive',
        eval_start: '2015-01-01',
        sources: {
          // Both companyfacts downloads of AAPL and GOOGL, and the older subsets, in one folder: read as one union.
          edgar: { raw_dir: linkFolder(join(tmp, 'sec'), [join(ARCHIVE, 'sec'), join(REAL, 'sec')]) },
          fred: { raw_dir: join(REAL, 'fred') },
          // One folder of mixed macro files: each reader takes its own format and names the rest in a warning.
          fredmd: { raw_dir: join(ARCHIVE, 'macro') },
          rtdsm: { raw_dir: join(ARCHIVE, 'macro') },
          prices: {
            raw_dir: linkFolder(join(tmp, 'prices'), [join(ARCHIVE, 'prices'), join(REAL, 'prices')]),
            membership: [join(ARCHIVE, 'membership/sp500_ticker_start_end_fja05680_2025-11-16.csv')],
          },
        },
      };
      const path = join(tmp, 'real-archive.json');
      writeFileSync(path, JSON.stringify(pipeline));
      const r = await asof('build', path, '--out', data(), '--json');
      expect(r.code, r.stderr).toBe(0);
      buildLog = r.stderr;
      manifest = JSON.parse(readFileSync(join(data(), 'manifest.json'), 'utf8'));
    });
    afterAll(() => {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    it('holds at least 20 companies, FRED-MD and RTDSM vintages and prices from Lean, Yahoo, Quandl and zipline', async () => {
      const series = JSON.parse((await asof('series', '--data', data(), '--json')).stdout) as {
        series_id: string;
      }[];
      const ids = series.map((s) => s.series_id);
      const ciks = new Set(ids.filter((id) => id.startsWith('edgar:')).map((id) => id.split(':')[1]));
      const priced = new Set(ids.filter((id) => id.startsWith('px:')).map((id) => id.split(':')[1]));
      // 17 us-gaap filers read (TSM and LPA report under IFRS and are skipped, with their facts counted).
      expect(ciks.size).toBeGreaterThanOrEqual(17);
      expect(new Set([...ciks, ...priced]).size).toBeGreaterThanOrEqual(20);
      expect(ids.filter((id) => id.startsWith('fredmd:')).length).toBeGreaterThanOrEqual(100);
      expect(ids).toEqual(
        expect.arrayContaining(['rtdsm:ROUTPUT', 'rtdsm:RUC', 'fredmd:INDPRO', 'fred:GDP']),
      );
      // Each vendor format was detected, as the build log says per file.
      for (const format of [
        'lean_daily',
        'lean_factor_file',
        'quandl_wiki',
        'quandl_wiki_table',
        'zipline_csvdir',
        'yahoo_csv',
      ])
        expect(buildLog, format).toMatch(new RegExp(`prices: \\S+: ${format}\\b`));
      // Lean's fb of 1999-2003 and the FB of 2012 are two entities.
      expect([...priced]).toEqual(expect.arrayContaining(['FB', 'FB_19990929']));
      expect(buildLog).toMatch(/membership of \d+ entities in sp500/);
      expect(buildLog).toMatch(
        /fredmd: \d+ series from 22 vintage files \(fredmd:1999-08 … fredmd:2020-07\)/,
      );
      expect(buildLog).toMatch(/rtdsm: 2 series from 2 files/);
    });

    it('accounts for every input file: one entry each, read = mapped + dropped, no EPS lost', () => {
      const acc = manifest.summary.ingest_accounting;
      const key = (source: string, file: string) => `${source.split(':')[0]}\u0000${file}`;
      const entries = new Set(acc.map((a) => key(a.source, a.file)));
      // Sidecars describe a file rather than hold records; every other input has its entry.
      const missing = manifest.inputs.filter(
        (i) => !i.source.endsWith(':sidecar') && !entries.has(key(i.source, i.key)),
      );
      expect(missing).toEqual([]);
      for (const a of acc) {
        expect(a.mapped + Object.values(a.dropped).reduce((x, y) => x + y, 0), `${a.source} ${a.file}`).toBe(
          a.read,
        );
      }
      const sources = new Set(acc.map((a) => a.source));
      expect([...sources].sort()).toEqual(['edgar', 'fred', 'fredmd', 'prices', 'rtdsm']);
      // The 2021 downloads list EPS under the unit key USD: none of their facts is dropped for its unit (ISRG's
      // `pure` copies of its EPS repeat the filing's USD/shares values: duplicates).
      for (const a of acc.filter((x) => /vintage2021-07/.test(x.file))) {
        const units = Object.entries(a.dropped).filter(([r]) => r.startsWith('unit:'));
        expect(units, a.file).toEqual([]);
      }
      // Files of the macro folder that neither reader takes are named, not dropped unsaid.
      const skipped = manifest.warnings.find((w) => w.code === 'FREDMD_SKIPPED_FILES')?.message ?? '';
      expect(skipped).toMatch(/zipline_treasury_curves_daily/);
      expect(skipped).toMatch(/philfed_rtdsm_ROUTPUTQvQd_original_2024-02\.xlsx/);
      const edgarIgnored = manifest.warnings.find((w) => w.code === 'EDGAR_RAW_FILE_IGNORED')?.message ?? '';
      expect(edgarIgnored).toMatch(/fsds_financial_statement_data_sets_2009q3\.zip/);
    });

    it('splits for a model cutoff, runs the baselines, scores them and reports, revisions visible', async () => {
      const split = join(tmp, 'split');
      const s = await asof(
        'split',
        '--manifest',
        join(data(), 'manifest.json'),
        '--out',
        split,
        '--model-cutoff',
        '2017-12-31',
        '--run-date',
        '2021-06-30',
      );
      expect(s.code, s.stderr).toBe(0);
      for (const window of ['T1', 'T2', 'T3'])
        expect(s.stdout).toMatch(new RegExp(`^(M|Q)\\s+${window}\\s+[1-9]`, 'm'));
      const forecasts = join(tmp, 'baselines.parquet');
      const b = await asof('baselines', '--manifest', join(split, 'manifest.json'), '--out', forecasts);
      expect(b.code, b.stderr).toBe(0);
      const score = join(tmp, 'score');
      const sc = await asof(
        'score',
        '--manifest',
        join(split, 'manifest.json'),
        '--forecasts',
        forecasts,
        '--out',
        score,
      );
      expect(sc.code, sc.stderr).toBe(0);
      const board = readFileSync(join(score, 'leaderboard.md'), 'utf8');
      for (const model of [/random\\?_walk/, /arima/, /garch/]) expect(board).toMatch(model);
      const html = join(tmp, 'universe.html');
      const rep = await asof(
        'report',
        '--manifest',
        join(data(), 'manifest.json'),
        '--series',
        'fredmd:INDPRO',
        '--series',
        'rtdsm:ROUTPUT',
        '--out',
        html,
      );
      expect(rep.code, rep.stderr).toBe(0);
      const page = readFileSync(html, 'utf8');
      // Real GDP's revisions (base-year changes among them) charted as change from first release, not levels.
      expect(page).toContain('rtdsm:ROUTPUT: revisions, latest vs first release');
      expect(page).toMatch(
        /revised periods; the largest, \d{4}-\d{2}-\d{2}: [\d.]+ → [\d.]+ \([+-]\d+\.\d{2}%\)/,
      );
    });
  },
);
