import type { Source } from '@asof/schema';
import { EmbeddedConfig } from './embedded-config.ts';
import { ingestEmbedded } from './ingest-embedded.ts';

/** The embedded source: vega-datasets real files and the seeded synthetic daily panel, no network. */
export const embeddedSource: Source<typeof EmbeddedConfig, object, 'embedded'> = {
  name: 'embedded',
  schema: EmbeddedConfig,
  example: { real: { sp500: true } },
  secrets: [],
  credentials: [],
  async ingest(config, sink, ctx) {
    await ctx.interruptibly(() => ingestEmbedded(config, sink, ctx.log));
    return { skipped: [] };
  },
};
