import { resolve } from 'node:path';
import type { Source } from '@asof/schema';
import type { Registry } from '@asof/taxonomy';
import { ingestRtdsmRawDir } from './ingest-rtdsm-raw-dir.ts';
import { RtdsmConfig } from './rtdsm-config.ts';

/** Philadelphia Fed Real-Time Data Set files from a raw directory. */
export const rtdsmSource: Source<typeof RtdsmConfig, { registry?: Registry }, 'rtdsm'> = {
  name: 'rtdsm',
  schema: RtdsmConfig,
  example: { raw_dir: 'rtdsm' },
  secrets: [],
  credentials: [],
  async ingest(rtdsm, sink, ctx) {
    const s = await ctx.interruptibly(() =>
      ingestRtdsmRawDir(resolve(ctx.cwd, rtdsm.raw_dir), sink, {
        registry: ctx.registry,
      }),
    );
    ctx.log(
      `rtdsm: ${s.series.length} series from ${s.files} files, ${s.observations} rows (${s.revisions} revisions, ${s.withdrawals} withdrawals)`,
    );
    return { skipped: [] };
  },
};
