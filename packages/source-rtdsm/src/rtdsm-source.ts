import { resolve } from 'node:path';
import { RtdsmSource, type Source, type SourceConfig } from '@asof/schema';
import type { Registry } from '@asof/taxonomy';
import { ingestRtdsmRawDir } from './ingest-rtdsm-raw-dir.ts';

/** Philadelphia Fed Real-Time Data Set files from a raw directory. */
export const rtdsmSource: Source<SourceConfig<'rtdsm'>, { registry?: Registry }> = {
  name: 'rtdsm',
  schema: RtdsmSource,
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
