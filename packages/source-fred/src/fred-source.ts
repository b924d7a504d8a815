import { resolve } from 'node:path';
import type { SkippedInput, Source } from '@asof/schema';
import { fredCatalog } from '@asof/taxonomy';
import { resolveFredApiKey } from './fetch-fred.ts';
import { FredConfig } from './fred-config.ts';
import { ingestSyntheticAlfred } from './generate-synthetic-alfred.ts';
import { ingestFredLive } from './ingest-fred-live.ts';
import { ingestFredRawDir } from './ingest-fred-raw-dir.ts';
import { planFredUpdate } from './plan-fred-update.ts';

/** FRED/ALFRED: synthetic ALFRED JSON, then a raw directory, then live series or the whole catalog. */
export const fredSource: Source<typeof FredConfig, object, 'fred'> = {
  name: 'fred',
  schema: FredConfig,
  example: { raw_dir: 'fred' },
  secrets: [],
  credentials: ['ASOF_FRED_API_KEY'],
  checkCredentials(fred) {
    const fredLive = fred.catalog || (fred.series?.length ?? 0) > 0;
    // An offline run without a key reads the cache alone (createFredClient needs no key then).
    if (fredLive && !(fred.offline && (process.env.ASOF_FRED_API_KEY ?? '') === '')) resolveFredApiKey();
  },
  planUpdate: planFredUpdate,
  async ingest(f, sink, ctx) {
    const skipped: SkippedInput[] = [];
    if (f.synthetic) {
      const synthetic = f.synthetic;
      const s = await ctx.interruptibly(() =>
        ingestSyntheticAlfred(sink, {
          seed: synthetic.seed,
          start: synthetic.start,
          end: synthetic.end,
          count: synthetic.count,
        }),
      );
      ctx.log(`fred: ${s.series.length} synthetic ALFRED series`);
    }
    if (f.raw_dir) {
      const s = await ingestFredRawDir(resolve(ctx.cwd, f.raw_dir), sink);
      ctx.log(`fred: ${s.series.length} series from ${f.raw_dir}`);
    }
    const ids = f.catalog ? fredCatalog().map((c) => c.series_id) : (f.series ?? []);
    if (ids.length > 0) {
      const s = await ingestFredLive(sink, {
        series: ids,
        client: { cacheDir: ctx.cacheDir(f.cache_dir), offline: f.offline },
        catalogRun: f.catalog ? { allowPartial: f.allow_partial === true } : undefined,
        log: ctx.log,
      });
      for (const x of s.failed)
        skipped.push({ source: 'fred', id: x.fredId, reason: `${x.code}: ${x.message}` });
      ctx.log(`fred: ${s.series.length} series live (${s.requests} requests, ${s.cacheHits} from cache)`);
    }
    return { skipped };
  },
};
