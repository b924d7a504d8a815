import { resolve } from 'node:path';
import type { Source } from '@asof/schema';
import type { Registry } from '@asof/taxonomy';
import { FredmdConfig } from './fredmd-config.ts';
import { ingestFredmdRawDir } from './ingest-fredmd-raw-dir.ts';

/** FRED-MD / FRED-QD vintage files from a raw directory, placed by the taxonomy registry. */
export const fredmdSource: Source<typeof FredmdConfig, { registry?: Registry }, 'fredmd'> = {
  name: 'fredmd',
  schema: FredmdConfig,
  example: { raw_dir: 'fredmd' },
  secrets: [],
  credentials: [],
  async ingest(fredmd, sink, ctx) {
    const s = await ctx.interruptibly(() =>
      ingestFredmdRawDir(resolve(ctx.cwd, fredmd.raw_dir), sink, {
        vintage: fredmd.vintage,
        registry: ctx.registry,
      }),
    );
    ctx.log(
      `fredmd: ${s.series.length} series from ${s.files} vintage files (${s.vintages[0] ?? '-'} … ${s.vintages.at(-1) ?? '-'}), ` +
        `${s.observations} rows (${s.revisions} revisions, ${s.withdrawals} withdrawals), ${s.unmapped.length} series not in the taxonomy`,
    );
    return { skipped: [] };
  },
};
