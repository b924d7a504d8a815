import type { OriginMonthRow, TrainMonthRow } from './aggregate-split.ts';
import { CHART_CONFIG, FREQUENCY_ORDER, instantRules, type Spec, timeX, WIDTH } from './chart-base.ts';

export type Instant = { label: string; at: number };

/** Training snapshot rows per month of their timestamp, stacked by category, with the cut marked. */
export function trainMonthsSpec(rows: TrainMonthRow[], instants: Instant[]): Spec {
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 240,
    layer: [
      {
        data: { values: rows },
        mark: { type: 'area', interpolate: 'step-after' },
        encoding: {
          x: timeX('month', 'period (month of the timestamp)'),
          y: { field: 'observations', type: 'quantitative', title: 'training rows', stack: 'zero' },
          color: { field: 'category', type: 'nominal', title: 'category' },
          tooltip: [
            { field: 'category' },
            { field: 'month', type: 'temporal', format: '%Y-%m', formatType: 'utc' },
            { field: 'observations', format: ',' },
          ],
        },
      },
      ...instantRules(instants),
    ],
  } as Spec;
}

/** Evaluation origins per month, stacked by frequency or by window (T1/T2/T3), with the key instants. */
export function originsSpec(rows: OriginMonthRow[], instants: Instant[], by: 'frequency' | 'window'): Spec {
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 220,
    layer: [
      {
        data: { values: rows },
        mark: { type: 'bar', width: 3 },
        encoding: {
          x: timeX('month', 'origin (month)'),
          y: { aggregate: 'sum', field: 'origins', type: 'quantitative', title: 'origins' },
          color:
            by === 'frequency'
              ? { field: 'frequency', type: 'nominal', sort: FREQUENCY_ORDER, title: 'frequency' }
              : { field: 'window', type: 'nominal', sort: ['T1', 'T2', 'T3', 'none'], title: 'window' },
          tooltip: [
            { field: by },
            { field: 'month', type: 'temporal', format: '%Y-%m', formatType: 'utc' },
            { aggregate: 'sum', field: 'origins', title: 'origins', format: ',' },
          ],
        },
      },
      ...instantRules(instants),
    ],
  } as Spec;
}

/** Origins per month whose targets are complete vs pending (some target step not yet public). */
export function pendingSpec(rows: OriginMonthRow[], instants: Instant[]): Spec {
  const values = rows.flatMap((r) => [
    { month: r.month, frequency: r.frequency, status: 'targets known', origins: r.origins - r.pending },
    { month: r.month, frequency: r.frequency, status: 'pending', origins: r.pending },
  ]);
  return {
    config: CHART_CONFIG,
    width: WIDTH,
    height: 200,
    layer: [
      {
        data: { values: values.filter((v) => v.origins > 0) },
        mark: { type: 'bar', width: 3 },
        encoding: {
          x: timeX('month', 'origin (month)'),
          y: { aggregate: 'sum', field: 'origins', type: 'quantitative', title: 'origins' },
          color: {
            field: 'status',
            type: 'nominal',
            title: 'targets',
            sort: ['targets known', 'pending'],
            scale: { domain: ['targets known', 'pending'], range: ['#7aa6d0', '#e67e22'] },
          },
          tooltip: [
            { field: 'status' },
            { field: 'month', type: 'temporal', format: '%Y-%m', formatType: 'utc' },
            { aggregate: 'sum', field: 'origins', title: 'origins', format: ',' },
          ],
        },
      },
      ...instantRules(instants),
    ],
  } as Spec;
}
