import { resolve } from 'node:path';
import { createHttpClient } from '@asof/http';
import type { SkippedInput, Source } from '@asof/schema';
import { YAHOO_CHART_BASE_URL } from './fetch-yahoo-chart.ts';
import { ingestSyntheticPrices } from './generate-synthetic-yahoo-charts.ts';
import {
  ingestPricesRawDir,
  type PriceQualitySummaryRow,
  summarizePriceQuality,
} from './ingest-prices-raw-dir.ts';
import { ingestYahooLive } from './ingest-yahoo-live.ts';
import { ingestMembershipCsv } from './parse-membership-csv.ts';
import { planPricesUpdate } from './plan-prices-update.ts';
import { PricesConfig } from './prices-config.ts';

/** Daily prices: synthetic Yahoo JSON, then raw files, then membership CSVs, then live Yahoo symbols. */
export const pricesSource: Source<typeof PricesConfig, object, 'prices'> = {
  name: 'prices',
  schema: PricesConfig,
  example: { raw_dir: 'prices' },
  secrets: [],
  credentials: [],
  planUpdate: planPricesUpdate,
  async ingest(p, sink, ctx) {
    const skipped: SkippedInput[] = [];
    const priceQuality: PriceQualitySummaryRow[] = [];
    const { log } = ctx;
    const map = { totalReturn: p.total_return, vendorLagMicros: p.vendor_lag_seconds * 1_000_000 };
    if (p.synthetic) {
      const seed = p.synthetic.seed;
      const results = await ctx.interruptibly(() => ingestSyntheticPrices(sink, { seed, map }));
      priceQuality.push(...summarizePriceQuality({ instruments: results }));
      log(`prices: ${results.length} synthetic Yahoo-format instruments`);
    }
    if (p.raw_dir) {
      const dir = resolve(ctx.cwd, p.raw_dir);
      const result = await ctx.interruptibly(() => ingestPricesRawDir(dir, sink, { map }));
      priceQuality.push(...summarizePriceQuality(result));
      // The format detected per file, so a user sees how each of their files was read.
      for (const f of result.files)
        log(`prices: ${f.file}: ${f.format}${f.symbols.length > 1 ? ` (${f.symbols.join(', ')})` : ''}`);
      for (const f of result.supportFiles) log(`prices: ${f.file}: ${f.format}`);
      log(`prices: ${result.instruments.length} instruments from ${dir}`);
    }
    for (const file of p.membership ?? []) {
      const m = await ctx.interruptibly(() => ingestMembershipCsv(resolve(ctx.cwd, file), sink, file));
      log(
        `prices: membership of ${m.entities} entities in ${m.universes.join(', ')} from ${file} (${m.shape}, ${m.changes} changes)`,
      );
    }
    if (p.symbols) {
      // Live Yahoo is the optional path: the download lands as raw files (with a download-date sidecar)
      // in the cache folder, and the same raw-directory parser reads them.
      const dir = resolve(ctx.cacheDir(p.cache_dir), 'yahoo', new Date().toISOString().slice(0, 10));
      const client = createHttpClient({
        hosts: { [new URL(YAHOO_CHART_BASE_URL).hostname]: { maxPerInterval: 2, intervalMs: 1000 } },
        log,
      });
      try {
        const result = await ingestYahooLive(sink, { symbols: p.symbols, dir, client, ingest: { map } });
        for (const f of result.failures) skipped.push({ source: 'prices', id: f.symbol, reason: f.message });
        priceQuality.push(...summarizePriceQuality(result));
        log(`prices: ${result.instruments.length} instruments downloaded from Yahoo`);
      } finally {
        await client.close();
      }
    }
    return { skipped, priceQuality };
  },
};
