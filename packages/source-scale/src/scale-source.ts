import type { Duck } from '@asof/duck';
import type { Source } from '@asof/schema';
import { defaultRegistry, type Registry } from '@asof/taxonomy';
import { generateScaleUniverse } from './generate-scale-universe.ts';
import { ScaleConfig } from './scale-config.ts';

/**
 * The FinVerse-shaped synthetic universe, generated inside the build's DuckDB: its rows never pass the
 * sink (rows: 'duck'), so the build requires `duck` before it runs it.
 */
export const scaleSource: Source<typeof ScaleConfig, { duck: Duck; registry?: Registry }, 'scale'> = {
  name: 'scale',
  schema: ScaleConfig,
  example: { seed: 1 },
  secrets: [],
  credentials: [],
  rows: 'duck',
  async ingest(scale, _sink, ctx) {
    const s = await generateScaleUniverse(ctx.duck, scale, ctx.registry ?? defaultRegistry());
    ctx.log(`scale: ${s.series} synthetic series, ${s.rows} rows generated in DuckDB`);
    return { skipped: [], generated: { series: s.series, rows: s.rows } };
  },
};
