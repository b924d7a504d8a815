import type { GenerationContext } from './generation-context.ts';
import type { SeriesPoints, SeriesRole } from './load-question-data.ts';

/** A hand-made question series for unit tests: periods with their first release and latest value. */
export function testPoints(
  seriesId: string,
  role: SeriesRole,
  frequency: string,
  rows: { ts: string; first: number; firstAt: string; latest?: number; latestAt?: string }[],
  extra: Partial<SeriesPoints> = {},
): SeriesPoints {
  const us = (iso: string) => Date.parse(iso) * 1000;
  return {
    seriesId,
    title: seriesId,
    frequency,
    source: role === 'close' ? 'synthetic' : role === 'macro' ? 'fred' : 'edgar',
    entityId: seriesId.split(':').slice(0, -1).join(':') || seriesId,
    role,
    fundMetric: role === 'fund' ? 'revenue' : null,
    ts: Float64Array.from(rows, (r) => us(r.ts)),
    firstValue: Float64Array.from(rows, (r) => r.first),
    firstAt: Float64Array.from(rows, (r) => us(r.firstAt)),
    latestValue: Float64Array.from(rows, (r) => r.latest ?? r.first),
    latestAt: Float64Array.from(rows, (r) => us(r.latestAt ?? r.firstAt)),
    ...extra,
  };
}

export function testContext(
  cutoff: string,
  runDate: string,
  extra: Partial<GenerationContext> = {},
): GenerationContext {
  return {
    cutoff: Date.parse(cutoff) * 1000,
    runDate: Date.parse(runDate) * 1000,
    seed: '0',
    spans: new Map(),
    entitySeries: new Map(),
    priceLookbackBars: 260,
    ...extra,
  };
}
