import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderChartSvg, renderReportHtml } from '@asof/report';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReportPage, chromiumMissing, openBrowser } from './check-report-page.ts';

// The browser check must fail on what a reader would see as broken: an empty chart, a console error, a
// missing resource. A page made of one good chart passes; the same page with a deliberately broken spec
// (its filter drops every row) does not.
const missing = chromiumMissing();
if (missing && process.env.CI === 'true') throw new Error(`CI=true: ${missing}`);
if (missing) console.warn(`skipping the browser check tests: ${missing}`);

const dir = mkdtempSync(join(tmpdir(), 'asof-check-page-'));
let browser: Awaited<ReturnType<typeof openBrowser>>;
beforeAll(async () => {
  if (!missing) browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const values = [
  { a: 'x', b: 3 },
  { a: 'y', b: 5 },
];

async function page(
  name: string,
  specs: Record<string, object>,
  extra = '',
  scaleToPage = true,
): Promise<string> {
  const blocks = [];
  for (const [id, spec] of Object.entries(specs)) {
    const r = await renderChartSvg(id, spec as never, { allowEmpty: true, scaleToPage });
    blocks.push({ kind: 'chart' as const, id, title: id, svg: r.svg, marks: r.marks });
  }
  const html = renderReportHtml({
    title: name,
    subtitle: '',
    sections: [{ id: 's', title: 's', blocks }],
  }).replace('</main>', `${extra}</main>`);
  const file = join(dir, `${name}.html`);
  writeFileSync(file, html);
  return file;
}

const good = {
  data: { values },
  mark: 'bar',
  encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } },
};

describe.skipIf(missing !== null)('checkReportPage (headless Debian chromium)', () => {
  it('passes a page whose every chart shows its marks', async () => {
    const r = await checkReportPage(browser.context, await page('good', { good }));
    expect(r.problems).toEqual([]);
    expect(r.charts).toEqual([expect.objectContaining({ id: 'good', marks: 2 })]);
  });

  it('fails a deliberately broken spec: a filter that drops every row leaves an empty chart', async () => {
    const broken = { ...good, transform: [{ filter: 'datum.b > 100' }] };
    const r = await checkReportPage(browser.context, await page('broken', { good, broken }));
    expect(r.problems).toEqual([expect.stringMatching(/^chart 'broken' shows no data marks \(0 marks/)]);
  });

  it('fails a spec whose field names are misspelt (nothing drawn where the data should be)', async () => {
    const typo = {
      data: { values },
      mark: 'bar',
      encoding: { x: { field: 'aa', type: 'nominal' }, y: { field: 'bb', type: 'quantitative' } },
    };
    const r = await checkReportPage(browser.context, await page('typo', { typo }));
    expect(r.problems.some((p) => p.startsWith("chart 'typo' shows no data marks"))).toBe(true);
  });

  it('fails on a console error, a failed request and a page without charts', async () => {
    const r = await checkReportPage(
      browser.context,
      await page('noisy', {}, `<img src="missing.png" alt=""><script>console.error('boom')</script>`),
    );
    expect(r.problems).toEqual(
      expect.arrayContaining([
        'console error: boom',
        expect.stringMatching(/^failed request: file:.*missing\.png/),
        'no chart on the page',
      ]),
    );
  });

  // Issue 51 item 7: at a 1280-px viewport a chart wider than the page, or a legend a reader has to scroll
  // to, is a broken page; the same chart drawn to fit passes.
  const legendRight = {
    data: { values },
    mark: 'bar',
    width: 1300,
    encoding: {
      x: { field: 'a', type: 'nominal' },
      y: { field: 'b', type: 'quantitative' },
      color: { field: 'a', type: 'nominal', title: 'the legend' },
    },
  };
  it('fails a chart wider than the page and its legend off the page; passes it scaled to fit', async () => {
    const wide = await checkReportPage(browser.context, await page('wide', { wide: legendRight }, '', false));
    expect(wide.pageWidth).toBeLessThanOrEqual(1280);
    expect(wide.problems).toEqual([
      expect.stringMatching(/^chart 'wide' is wider than the page: 1[34]\d\d px/),
      expect.stringMatching(/^chart 'wide': legend 'the legend' at \d+…\d+ px, page 0…12\d\d px$/),
    ]);
    const fitted = await checkReportPage(browser.context, await page('fitted', { wide: legendRight }));
    expect(fitted.problems).toEqual([]);
  });

  it('fails a legend outside the figure it belongs to, though the chart itself fits the page', async () => {
    // The legend is drawn 1,150 px to the right of a 300-px plot: inside the page, past the figure's box.
    const far = {
      ...legendRight,
      width: 300,
      encoding: {
        ...legendRight.encoding,
        color: { ...legendRight.encoding.color, legend: { orient: 'none', legendX: 1150, legendY: 0 } },
      },
    };
    const r = await checkReportPage(browser.context, await page('far', { far }, '', false));
    expect(r.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^chart 'far': legend 'the legend' at /)]),
    );
  });
});
