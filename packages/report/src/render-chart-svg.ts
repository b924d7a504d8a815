import { AsofError } from '@asof/schema';
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export class ChartRenderError extends AsofError {
  constructor(message: string, options: { context?: Record<string, unknown>; cause?: unknown } = {}) {
    super('REPORT_CHART_FAILED', message, options);
  }
}

export interface RenderedChart {
  svg: string;
  /** Items of the data marks (role 'mark': bars, lines, points, cells…), axes and legends not counted. */
  marks: number;
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
  options: { allowEmpty?: boolean } = {},
): Promise<RenderedChart> {
  let view: View | undefined;
  try {
    const compiled = compile(spec).spec;
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
    const svg = addHoverTitles(await view.toSVG());
    return { svg, marks };
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
