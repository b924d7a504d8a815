/// <reference lib="dom" />
// The page-side check runs in the browser: its DOM types are needed in this file only.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when Debian's chromium is installed. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM)
    ? null
    : `${CHROMIUM} is absent: install Debian's package 'chromium' (apt-get install -y chromium) to run the browser tests`;
}

export interface ChartCheck {
  id: string;
  /** Data-mark elements (inside Vega's role-mark groups) with a non-empty box on screen. */
  marks: number;
  width: number;
  height: number;
  /** The chart's box on the page (its svg or canvas), in CSS pixels. */
  left: number;
  right: number;
  /** Width of the figure's visible content box: a wider chart needs horizontal scrolling to be read. */
  room: number;
  /** Legends (Vega's role-legend groups) whose box lies partly outside the page or outside the figure's visible box. */
  legendsOutside: string[];
}

export interface PageCheck {
  charts: ChartCheck[];
  /** The page's width (the viewport without a vertical scrollbar), which every chart and legend must fit. */
  pageWidth: number;
  /** The text of every section heading (h2), in page order. */
  headings: string[];
  consoleErrors: string[];
  failedRequests: string[];
  pageErrors: string[];
  /** Everything wrong with the page; empty when it passes. */
  problems: string[];
}

/** A headless Debian chromium with a fresh profile; the flags keep it from phoning home (refused here). */
export async function openBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'asof-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a report file in the browser and checks it as a reader would see it: no console error, no page
 * error, no failed request, at least one chart, and every chart (figure[data-chart]) shows at least one data
 * mark — an element inside one of Vega's `role-mark` groups whose box on screen is not empty. A PNG of the
 * whole page goes to `screenshot` when given.
 */
export async function checkReportPage(
  context: BrowserContext,
  htmlPath: string,
  screenshot?: string,
): Promise<PageCheck> {
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('requestfailed', (r) => failedRequests.push(`${r.url()} (${r.failure()?.errorText ?? 'failed'})`));
  page.on('response', (r) => {
    if (r.status() >= 400) failedRequests.push(`${r.url()} (HTTP ${r.status()})`);
  });
  try {
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });
    const { charts, pageWidth, headings } = await page.evaluate(() => {
      const pageWidth = document.documentElement.clientWidth;
      const charts = [...document.querySelectorAll('figure[data-chart]')].map((fig) => {
        const id = fig.getAttribute('data-chart') ?? '?';
        const svg = fig.querySelector('svg, canvas');
        const box = svg?.getBoundingClientRect();
        // The figure's visible area (it scrolls sideways what does not fit): its padding box on screen.
        const f = fig.getBoundingClientRect();
        const style = getComputedStyle(fig);
        const visibleLeft = f.left + Number.parseFloat(style.borderLeftWidth);
        const visibleRight = visibleLeft + fig.clientWidth;
        const room =
          fig.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        let marks = 0;
        for (const group of fig.querySelectorAll('g.role-mark')) {
          for (const el of group.querySelectorAll('path, rect, line, circle, text, image, polygon')) {
            const r = (el as SVGGraphicsElement).getBBox();
            if (r.width > 0 || r.height > 0) marks++;
          }
        }
        const legendsOutside: string[] = [];
        // Top-level legends only: a legend's own parts are role-legend-* groups inside it.
        for (const [i, legend] of [...fig.querySelectorAll('g.role-legend')].entries()) {
          const r = legend.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          const title = legend.querySelector('g.role-legend-title text')?.textContent ?? `#${i + 1}`;
          const where = `${Math.round(r.left)}…${Math.round(r.right)} px`;
          if (r.left < 0 || r.right > pageWidth)
            legendsOutside.push(`'${title}' at ${where}, page 0…${pageWidth} px`);
          else if (r.left < visibleLeft - 0.5 || r.right > visibleRight + 0.5)
            legendsOutside.push(
              `'${title}' at ${where}, outside the figure's visible ${Math.round(visibleLeft)}…${Math.round(visibleRight)} px`,
            );
        }
        return {
          id,
          marks,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
          left: box?.left ?? 0,
          right: box?.right ?? 0,
          room,
          legendsOutside,
        };
      });
      const headings = [...document.querySelectorAll('section > h2')].map((h) => h.textContent ?? '');
      return { charts, pageWidth, headings };
    });
    if (screenshot) {
      mkdirSync(dirname(screenshot), { recursive: true });
      await page.screenshot({ path: screenshot, fullPage: true });
    }
    const problems = [
      ...consoleErrors.map((e) => `console error: ${e}`),
      ...pageErrors.map((e) => `page error: ${e}`),
      ...failedRequests.map((e) => `failed request: ${e}`),
      ...(charts.length === 0 ? ['no chart on the page'] : []),
      ...charts
        .filter((c) => c.marks === 0 || c.width === 0 || c.height === 0)
        .map((c) => `chart '${c.id}' shows no data marks (${c.marks} marks, ${c.width}×${c.height} px)`),
      ...charts
        .filter((c) => c.left < 0 || c.right > pageWidth || c.width > c.room + 0.5)
        .map(
          (c) =>
            `chart '${c.id}' is wider than the page: ${Math.round(c.width)} px at ${Math.round(c.left)}…${Math.round(c.right)} px, the page is ${pageWidth} px and its figure has room for ${Math.round(c.room)} px`,
        ),
      ...charts.flatMap((c) => c.legendsOutside.map((l) => `chart '${c.id}': legend ${l}`)),
    ];
    return { charts, pageWidth, headings, consoleErrors, failedRequests, pageErrors, problems };
  } finally {
    await page.close();
  }
}
