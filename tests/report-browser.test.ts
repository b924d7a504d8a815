import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportPage, chromiumMissing, openBrowser } from './check-report-page.ts';
import { asof, REPO, scratchOut } from './helpers.ts';
import { canaryFixture, linkShared } from './shared-fixtures.ts';

// `asof report` of each kind — universe (with a vintage view), split, scoring run — opened in headless
// Debian chromium at a 1280-px viewport: no console error, no failed request, every chart shows data marks,
// no chart is wider than the page and no legend lies outside it, and the scoring report has a section for
// every section of the run's leaderboard.md (the same heading). Screenshots for a
// person to look at: {universe,split,scoring}.png in $ASOF_REPORT_SCREENSHOTS, else in the run's scratch folder
// (removed at the end; tests leave the checkout's out/ alone).
const missing = chromiumMissing();
if (missing && process.env.CI === 'true') throw new Error(`CI=true: ${missing}`);
if (missing) console.warn(`skipping the report browser test: ${missing}`);

const work = scratchOut('report-browser');
const SHOTS = process.env.ASOF_REPORT_SCREENSHOTS ?? join(work.abs, 'screenshots');
const rel = (p: string) => join(work.rel, p);
let browser: Awaited<ReturnType<typeof openBrowser>>;
/** The universe's most revised series, for the vintage view. */
let revised = '';

async function run(...argv: string[]) {
  const r = await asof(...argv);
  expect(r.code, `asof ${argv.join(' ')}\n${r.stderr}`).toBe(0);
  return r;
}

beforeAll(async () => {
  if (missing) return;
  mkdirSync(work.abs, { recursive: true });
  // The run's shared canary universe (two instruments, three ALFRED series, two EDGAR companies), read only.
  linkShared(work.abs, { universe: (await canaryFixture()).clean });
  const duck = await Duck.open({ threads: 1 });
  try {
    const [top] = await duck.all<{ series_id: string }>(
      `SELECT series_id FROM read_parquet(${quoteLiteral(join(work.abs, 'universe', 'series.parquet'))})
       ORDER BY n_revisions DESC, series_id LIMIT 1`,
    );
    revised = top.series_id;
  } finally {
    duck.close();
  }
  await run(
    'split',
    '--manifest',
    rel('universe/manifest.json'),
    '--out',
    rel('split'),
    '--model-cutoff',
    '2021-01-01',
    '--run-date',
    '2022-06-30',
    '--dm',
  );
  await run('baselines', '--manifest', rel('split/manifest.json'), '--out', rel('baselines.parquet'));
  await run(
    'score',
    '--manifest',
    rel('split/manifest.json'),
    '--forecasts',
    rel('baselines.parquet'),
    '--universe',
    rel('universe/manifest.json'),
    '--out',
    rel('score'),
  );
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(work.abs, { recursive: true, force: true });
});

describe.skipIf(missing !== null)('asof report in a real browser', () => {
  const cases = [
    {
      kind: 'universe',
      args: ['--manifest', 'universe/manifest.json', '--series', 'REVISED'],
      charts: [
        'coverage',
        'active-series',
        'publication-lag',
        'vintages',
        'revision-sizes',
        'pattern-mix',
        'segment-statistics',
        'vintage-1',
      ],
    },
    {
      kind: 'split',
      args: ['--manifest', 'split/manifest.json'],
      charts: ['train-snapshot', 'origins', 'windows'],
    },
    {
      kind: 'scoring',
      args: ['--manifest', 'split/manifest.json', '--results', 'score/results.json'],
      charts: ['train-snapshot', 'origins', 'ranks', 'verdicts', 'horizon-metrics', 'baselines-win'],
    },
  ];
  for (const c of cases) {
    it(`${c.kind}: renders every chart with data marks within a 1280-px page, no console error, no failed request`, async () => {
      const out = rel(`${c.kind}.html`);
      const args = c.args.map((a) => (a === 'REVISED' ? revised : a.includes('/') ? rel(a) : a));
      const r = await run('report', ...args, '--out', out, '--json');
      const doc = JSON.parse(r.stdout);
      expect(doc.scoring).toBe(c.kind === 'scoring');
      expect(statSync(join(REPO, out)).size).toBe(doc.bytes);
      const check = await checkReportPage(browser.context, join(REPO, out), join(SHOTS, `${c.kind}.png`));
      expect(check.pageWidth).toBeGreaterThan(1200);
      expect(check.pageWidth).toBeLessThanOrEqual(1280);
      expect(check.problems).toEqual([]);
      expect(check.charts.length).toBe(doc.charts);
      if (c.kind === 'scoring') {
        const leaderboard = readFileSync(join(work.abs, 'score', 'leaderboard.md'), 'utf8');
        const sections = [...leaderboard.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
        expect(sections.length).toBeGreaterThan(5);
        const missingSections = sections.filter((h) => !check.headings.includes(h));
        expect(missingSections, `report headings: ${check.headings.join(' | ')}`).toEqual([]);
      }
      expect(check.charts.map((x) => x.id)).toEqual(expect.arrayContaining(c.charts));
      for (const chart of check.charts) expect(chart.marks, chart.id).toBeGreaterThan(0);
      expect(statSync(join(SHOTS, `${c.kind}.png`)).size).toBeGreaterThan(10_000);
    });
  }

  it('exits 2 with a one-line cause for bad usage', async () => {
    const noOut = await asof('report', '--manifest', rel('universe/manifest.json'));
    expect(noOut.code).toBe(2);
    const notHtml = await asof('report', '--manifest', rel('universe/manifest.json'), '--out', rel('r.json'));
    expect(notHtml.code).toBe(2);
    expect(notHtml.stderr).toMatch(/name it \*\.html/);
    const seriesOnSplit = await asof(
      'report',
      '--manifest',
      rel('split/manifest.json'),
      '--series',
      'x',
      '--out',
      rel('x.html'),
    );
    expect(seriesOnSplit.code).toBe(2);
    expect(seriesOnSplit.stderr).toMatch(/--series needs a universe manifest/);
    const otherResults = await asof(
      'report',
      '--manifest',
      rel('universe/manifest.json'),
      '--results',
      rel('split/manifest.json'),
      '--out',
      rel('y.html'),
    );
    expect(otherResults.code).toBe(2);
    expect(otherResults.stderr).not.toMatch(/unexpected failure|\n\s+at /);
  });
});
