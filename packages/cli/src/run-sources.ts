import { resolve } from 'node:path';
import type { Duck } from '@asof/duck';
import { createHttpClient } from '@asof/http';
import { AsofError, type AtomicSink, type PipelineConfig } from '@asof/schema';
import { ingestEdgarLive, ingestEdgarRawDir, ingestSyntheticEdgar } from '@asof/source-edgar';
import { ingestEmbedded } from '@asof/source-embedded';
import { ingestFredLive, ingestFredRawDir, ingestSyntheticAlfred } from '@asof/source-fred';
import {
  downloadYahooCharts,
  ingestPricesRawDir,
  ingestSyntheticPrices,
  summarizePriceQuality,
} from '@asof/source-prices';
import { generateScaleUniverse } from '@asof/source-scale';
import { defaultRegistry, fredCatalog, type Registry } from '@asof/taxonomy';

export interface SourceReport {
  /** Per-instrument price quality rows and skipped companies, for the build summary. */
  priceQuality: ReturnType<typeof summarizePriceQuality>;
  skipped: { source: string; id: string; reason: string }[];
}

/**
 * Runs every source a pipeline configures into the sink. Live paths (tickers, series, symbols) need their
 * keys from the environment; raw directories and synthetic blocks need no network.
 */
export async function runSources(
  config: PipelineConfig,
  sink: AtomicSink,
  options: {
    cwd: string;
    log: (line: string) => void;
    /** The build's DuckDB: sources that generate inside DuckDB (scale) write the staging tables directly. */
    duck?: Duck;
    registry?: Registry;
  },
): Promise<SourceReport> {
  const report: SourceReport = { priceQuality: [], skipped: [] };
  const { log } = options;
  const cacheDir = (dir: string | undefined) => resolve(options.cwd, dir ?? '.asof-cache/http');
  const src = config.sources;
  if (src.embedded) ingestEmbedded(src.embedded, sink, log);

  if (src.edgar) {
    const e = src.edgar;
    const summaries = [];
    if (e.synthetic) {
      summaries.push(
        ingestSyntheticEdgar(sink, {
          seed: e.synthetic.seed,
          companies: e.synthetic.companies,
          firstFiscalYear: e.synthetic.first_fiscal_year,
          fiscalYears: e.synthetic.fiscal_years,
        }),
      );
    }
    if (e.raw_dir) summaries.push(await ingestEdgarRawDir(resolve(options.cwd, e.raw_dir), sink));
    if (e.tickers) {
      summaries.push(
        await ingestEdgarLive(sink, {
          tickers: e.tickers,
          cacheDir: cacheDir(e.cache_dir),
          offline: e.offline,
          log,
        }),
      );
    }
    for (const s of summaries) {
      for (const k of s.skipped)
        report.skipped.push({ source: 'edgar', id: k.cik, reason: `${k.entity_name}: ${k.reason}` });
      log(
        `edgar: ${s.ingested} companies, ${s.series} series, ${s.observations} rows (${s.revisions} revisions)`,
      );
    }
  }

  if (src.fred) {
    const f = src.fred;
    if (f.synthetic) {
      const s = ingestSyntheticAlfred(sink, {
        seed: f.synthetic.seed,
        start: f.synthetic.start,
        end: f.synthetic.end,
        count: f.synthetic.count,
      });
      log(`fred: ${s.series.length} synthetic ALFRED series`);
    }
    if (f.raw_dir) {
      const s = await ingestFredRawDir(resolve(options.cwd, f.raw_dir), sink);
      log(`fred: ${s.series.length} series from ${f.raw_dir}`);
    }
    const ids = f.catalog ? fredCatalog().map((c) => c.series_id) : (f.series ?? []);
    if (ids.length > 0) {
      const s = await ingestFredLive(sink, {
        series: ids,
        client: { cacheDir: cacheDir(f.cache_dir), offline: f.offline },
        continueOnError: f.catalog,
        log,
      });
      for (const x of s.failed)
        report.skipped.push({ source: 'fred', id: x.fredId, reason: `${x.code}: ${x.message}` });
      log(`fred: ${s.series.length} series live (${s.requests} requests, ${s.cacheHits} from cache)`);
    }
  }

  if (src.prices) {
    const p = src.prices;
    const map = { totalReturn: p.total_return, vendorLagMicros: p.vendor_lag_seconds * 1_000_000 };
    if (p.synthetic) {
      const results = ingestSyntheticPrices(sink, { seed: p.synthetic.seed, map });
      report.priceQuality.push(...summarizePriceQuality({ instruments: results }));
      log(`prices: ${results.length} synthetic Yahoo-format instruments`);
    }
    const dirs = p.raw_dir ? [resolve(options.cwd, p.raw_dir)] : [];
    if (p.symbols) {
      // Live Yahoo is the optional path: the download lands as raw files (with a download-date sidecar)
      // in the cache folder, and the same raw-directory parser reads them.
      const dir = resolve(cacheDir(p.cache_dir), 'yahoo', new Date().toISOString().slice(0, 10));
      const client = createHttpClient({
        hosts: { 'query1.finance.yahoo.com': { maxPerInterval: 2, intervalMs: 1000 } },
        log,
      });
      const got = await downloadYahooCharts(p.symbols, dir, { client });
      await client.close();
      for (const f of got.failures)
        report.skipped.push({ source: 'prices', id: f.symbol, reason: f.message });
      dirs.push(dir);
    }
    for (const dir of dirs) {
      const result = ingestPricesRawDir(dir, sink, { map });
      report.priceQuality.push(...summarizePriceQuality(result));
      log(`prices: ${result.instruments.length} instruments from ${dir}`);
    }
  }

  if (src.scale) {
    if (!options.duck)
      throw new AsofError(
        'SCALE_NEEDS_DUCK',
        'runSources: the scale source needs options.duck (buildUniverse passes it)',
      );
    const s = await generateScaleUniverse(options.duck, src.scale, options.registry ?? defaultRegistry());
    log(`scale: ${s.series} synthetic series, ${s.rows} rows generated in DuckDB`);
  }
  return report;
}
