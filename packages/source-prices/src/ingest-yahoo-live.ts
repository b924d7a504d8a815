import { mkdirSync } from 'node:fs';
import { AsofError, type AtomicSink } from '@asof/schema';
import {
  type DownloadYahooChartsResult,
  downloadYahooCharts,
  type FetchYahooChartOptions,
} from './fetch-yahoo-chart.ts';
import {
  type IngestPricesOptions,
  type IngestPricesResult,
  ingestPricesRawDir,
} from './ingest-prices-raw-dir.ts';

export interface IngestYahooLiveOptions extends FetchYahooChartOptions {
  symbols: string[];
  /** Folder the downloads land in as raw files with sidecars (created when absent), then read back. */
  dir: string;
  /** Options of the raw-directory read (vendor lag, total return…). */
  ingest?: IngestPricesOptions;
}

export interface IngestYahooLiveResult extends IngestPricesResult {
  /** Symbols Yahoo refused (each is also a warning of the caller's choosing). */
  failures: DownloadYahooChartsResult['failures'];
}

/**
 * The optional live prices path: downloads each symbol's chart into `dir` (raw JSON plus a sidecar with
 * the download instant) and reads the folder with the same parser as an offline replay. When no symbol
 * could be downloaded the run stops with the first refusal's reason, instead of reading a folder the user
 * never named.
 */
export async function ingestYahooLive(
  sink: AtomicSink,
  options: IngestYahooLiveOptions,
): Promise<IngestYahooLiveResult> {
  mkdirSync(options.dir, { recursive: true });
  const got = await downloadYahooCharts(options.symbols, options.dir, options);
  if (got.files.length === 0) {
    const first = got.failures[0];
    throw new AsofError(
      'YAHOO_NOTHING_DOWNLOADED',
      `Yahoo: none of the ${options.symbols.length} symbol(s) could be downloaded (${got.failures
        .map((f) => f.symbol)
        .join(', ')}); first: ${first?.message ?? 'no symbols given'}`,
      { context: { failures: got.failures.map((f) => ({ symbol: f.symbol, code: f.code })) } },
    );
  }
  return { ...ingestPricesRawDir(options.dir, sink, options.ingest), failures: got.failures };
}
