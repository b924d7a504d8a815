import { AsofError } from '@asof/schema';
import { logger, parse, View, Warn } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { PAGE_CHART_WIDTH } from './chart-base.ts';

/**
 * Vega-Lite's own logger, less one false warning: with autosize fit-x and a stepped (discrete) height it
 * warns that it drops "fit-y", which was never asked for, and keeps fit-x (vega-lite 6.4 getTopLevelProperties).
 */
const FIT_QUIET_LOGGER = (() => {
  const base = logger(Warn);
  const warn = base.warn.bind(base);
  return Object.assign(base, {
    warn: (...args: readonly unknown[]) =>
      /^Dropping "fit-y" because spec has discrete height/.test(String(args[0])) ? base : warn(...args),
  });
})();

export class ChartRenderError extends AsofError {
  constructor(message: string, options: { context?: Record<string, unknown>; cause?: unknown } = {}) {
    super('REPORT_CHART_FAILED', message, options);
  }
}

export interface RenderedChart {
  svg: string;
  /** Items of the data marks (role 'mark': bars, lines, points, cells…), axes and legends not counted. */
  marks: number;
  /** The chart's width as laid out, axes and legends included (px). */
  width: number;
  /** Whether the chart was wider than PAGE_CHART_WIDTH and its SVG is drawn scaled down to that width. */
  scaled: boolean;
}

interface SceneMark {
  marktype: string;
  role?: string;
  items?: SceneItem[];
}
interface SceneItem {
  items?: SceneMark[];
}

/** Counts the items of data marks in a Vega scenegraph (group marks are containers, not data). */
export function countDataMarks(root: SceneMark): number {
  let n = 0;
  const visit = (mark: SceneMark) => {
    if (mark.marktype !== 'group' && mark.role === 'mark') n += mark.items?.length ?? 0;
    for (const item of mark.items ?? []) for (const child of item.items ?? []) visit(child);
  };
  visit(root);
  return n;
}

/**
 * A Vega-Lite spec compiled and rendered to SVG in Node by Vega's headless View (no browser, no canvas;
 * why at build time: docs/decisions/0011-report-charts.md).
 * Each data mark's ARIA label (the tooltip fields) also becomes an SVG <title>, so a browser shows it on
 * hover without any script in the page. A chart whose data marks are all missing is an error (`name`d):
 * the sections only draw charts that have rows, so an empty chart is a bug, not an empty universe.
 */
export async function renderChartSvg(
  name: string,
  spec: TopLevelSpec,
  /** scaleToPage false: keep a chart wider than the page at its width (to test the page check only). */
  options: { allowEmpty?: boolean; scaleToPage?: boolean } = {},
): Promise<RenderedChart> {
  let view: View | undefined;
  try {
    const compiled = compile(spec, { logger: FIT_QUIET_LOGGER }).spec;
    view = new View(parse(compiled), { renderer: 'none' });
    await view.runAsync();
    const marks = countDataMarks((view.scenegraph() as unknown as { root: SceneMark }).root);
    if (marks === 0 && !options.allowEmpty) {
      throw new ChartRenderError(
        `chart '${name}' drew no data marks\n  hint: a report bug; its data had no row`,
        {
          context: { chart: name },
        },
      );
    }
    const drawn = addHoverTitles(await view.toSVG());
    const { svg, width, scaled } =
      options.scaleToPage === false
        ? { ...fitPageWidth(drawn), svg: drawn, scaled: false }
        : fitPageWidth(drawn);
    return { svg, marks, width, scaled };
  } catch (cause) {
    if (cause instanceof ChartRenderError) throw cause;
    throw new ChartRenderError(`chart '${name}' failed to render: ${(cause as Error).message}`, {
      cause,
      context: { chart: name },
    });
  } finally {
    view?.finalize();
  }
}

/** `<path aria-label="x" role="graphics-symbol" …/>` → the same element with `<title>x</title>` inside. */
export function addHoverTitles(svg: string): string {
  return svg.replace(
    /<(path|rect|circle|line|image)( aria-label="([^"]*)" role="graphics-symbol"[^>]*?)\/>/g,
    (_m, tag: string, attrs: string, label: string) => `<${tag}${attrs}><title>${label}</title></${tag}>`,
  );
}

/**
 * A chart wider than the page is drawn scaled down to PAGE_CHART_WIDTH (its viewBox keeps the drawing whole):
 * the charts lay themselves out to fit, and this is the backstop for data no layout foresaw (a legend or a
 * label longer than any seen), so no chart or legend ever lies off a 1280-px page.
 */
export function fitPageWidth(svg: string): { svg: string; width: number; scaled: boolean } {
  const m = /^<svg([^>]*?) width="([\d.]+)" height="([\d.]+)"/.exec(svg);
  if (!m) return { svg, width: Number.NaN, scaled: false };
  const width = Number(m[2]);
  if (width <= PAGE_CHART_WIDTH) return { svg, width, scaled: false };
  const height = Math.round((Number(m[3]) * PAGE_CHART_WIDTH) / width);
  return {
    svg: `<svg${m[1]} width="${PAGE_CHART_WIDTH}" height="${height}"${svg.slice(m[0].length)}`,
    width,
    scaled: true,
  };
}
