import type { TopLevelSpec } from 'vega-lite';

export type Spec = TopLevelSpec;
export type Row = Record<string, unknown>;

/** The shared look of every chart: white background, no view border, readable labels. */
export const CHART_CONFIG = {
  background: 'white',
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 260 },
  font: 'sans-serif',
} as const;

export const WIDTH = 680;

/**
 * The widest chart (axes and legends included) a 1280-px-wide page shows without scrolling sideways: main's
 * 1,200-px content box less the figure's padding and border (1,178 px), with room to spare. Charts whose
 * natural width depends on the data (one column per model, group or metric) are laid out to fit it.
 */
export const PAGE_CHART_WIDTH = 1100;

/**
 * The width of a chart's text labels as Vega lays them out at build time: without a canvas it estimates
 * 0.8 × font size per character (8.8 px at the 11-px label font) and truncates labels at their limit by
 * that estimate; capped as the axis and legend label limits cap them.
 */
export function labelWidth(labels: string[], limit = 260): number {
  return Math.min(limit, 8.8 * Math.max(0, ...labels.map((l) => l.length)));
}

/** Frequencies from fastest to slowest, the order every chart and table uses. */
export const FREQUENCY_ORDER = ['D', 'BD', 'W', 'M', 'Q', 'A'];

/** A temporal x channel over epoch milliseconds, shown in UTC (the report must not depend on TZ). */
export function timeX(field: string, title: string) {
  return { field, type: 'temporal' as const, title, scale: { type: 'utc' as const } };
}

/** Vertical rules with labels at key instants (train cutoff, eval start, model cutoff, run date). */
export function instantRules(instants: { label: string; at: number }[]) {
  const values = instants.map((i) => ({ label: i.label, at: i.at }));
  return [
    {
      data: { values },
      mark: { type: 'rule' as const, color: '#c0392b', strokeDash: [4, 3] },
      encoding: { x: { field: 'at', type: 'temporal' as const, scale: { type: 'utc' as const } } },
    },
    {
      data: { values },
      mark: {
        type: 'text' as const,
        align: 'left' as const,
        baseline: 'top' as const,
        dx: 3,
        dy: 2,
        color: '#c0392b',
        fontSize: 10,
      },
      encoding: {
        x: { field: 'at', type: 'temporal' as const, scale: { type: 'utc' as const } },
        y: { value: 0 },
        text: { field: 'label', type: 'nominal' as const },
      },
    },
  ];
}

/** An ISO date (YYYY-MM-DD) of epoch milliseconds, for captions and tables. */
export function isoDay(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  return new Date(ms).toISOString().slice(0, 10);
}
