import { EmbeddedSource, type Source, type SourceConfig } from '@asof/schema';
import { ingestEmbedded } from './ingest-embedded.ts';

/** The embedded source: vega-datasets real files and the seeded synthetic daily panel, no network. */
export const embeddedSource: Source<SourceConfig<'embedded'>> = {
  name: 'embedded',
  schema: EmbeddedSource,
  secrets: [],
  credentials: [],
  async ingest(config, sink, ctx) {
    await ctx.interruptibly(() => ingestEmbedded(config, sink, ctx.log));
    return { skipped: [] };
  },
};
