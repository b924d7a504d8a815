import type { Spec } from './chart-base.ts';
import { renderChartSvg } from './render-chart-svg.ts';
import type { Block } from './render-report-html.ts';

/** A chart block: the spec rendered to SVG now (the name is the chart's id in the page and in errors). */
export async function chartBlock(id: string, title: string, spec: Spec, caption?: string): Promise<Block> {
  const { svg, marks } = await renderChartSvg(id, spec);
  return { kind: 'chart', id, title, svg, marks, caption };
}
