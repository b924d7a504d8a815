import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AsofError, type AtomicSink, oneLineMessage } from '@asof/schema';
import {
  createFredClient,
  type FredClient,
  type FredClientOptions,
  type FredSeriesBundle,
} from './fetch-fred.ts';
import {
  type FredIngestOptions,
  type FredIngestSummary,
  type FredRawFile,
  ingestFredRawFiles,
} from './ingest-fred-raw-dir.ts';

export interface FredLiveOptions extends FredIngestOptions {
  /** FRED ids to pull, e.g. ['GDP', 'CPIAUCSL']; the CLI passes the catalog's ids for a whole-catalog pull. */
  series: readonly string[];
  /** A ready client (tests, shared limits); otherwise created from `client`. */
  fredClient?: FredClient;
  client?: FredClientOptions;
  /** Also write what was fetched as a raw directory that `ingestFredRawDir` replays to the same rows. */
  saveRawDir?: string;
  /** Also fetch each release's calendar (release/dates) and save it with `saveRawDir`. Default false. */
  releaseDates?: boolean;
  /** Record a failing series as a warning (FRED_SERIES_FAILED) and go on, instead of stopping. */
  continueOnError?: boolean;
  /**
   * A whole-catalog pull (implies continueOnError): every series is tried, then the run fails if any
   * failed, unless `allowPartial`; with it, it still fails when more than half failed
   * (docs/decisions/0012-source-input-checks.md). The failures are listed as warnings either way.
   */
  catalogRun?: { allowPartial: boolean };
  /** Progress lines (stderr in the CLI); never contain the key. */
  log?: (line: string) => void;
}

export interface FredLiveSummary extends FredIngestSummary {
  requests: number;
  retries: number;
  cacheHits: number;
  failed: { fredId: string; code: string; message: string }[];
}

const enc = new TextEncoder();

/** A fetched series as raw-directory files (the names `ingestFredRawFiles` recognises). */
export function bundleToRawFiles(bundle: FredSeriesBundle): FredRawFile[] {
  const id = bundle.fredId;
  const files: FredRawFile[] = [
    { name: `fred_api_series_${id}.json`, bytes: enc.encode(JSON.stringify({ seriess: [bundle.meta] })) },
    {
      name: `fred_api_series_observations_${id}_all_vintages.json`,
      bytes: enc.encode(
        JSON.stringify({
          realtime_start: '1776-07-04',
          realtime_end: '9999-12-31',
          output_type: 1,
          count: bundle.observations.length,
          offset: 0,
          limit: Math.max(100_000, bundle.observations.length),
          observations: bundle.observations,
        }),
      ),
    },
  ];
  if (bundle.release !== undefined) {
    files.push({
      name: `fred_api_series_release_${id}.json`,
      bytes: enc.encode(JSON.stringify({ releases: [bundle.release] })),
    });
    if (bundle.releaseDates !== undefined) {
      const rid = bundle.release.id;
      files.push({
        name: `fred_api_release_dates_${rid}.json`,
        bytes: enc.encode(
          JSON.stringify({
            count: bundle.releaseDates.length,
            offset: 0,
            limit: Math.max(10_000, bundle.releaseDates.length),
            release_dates: bundle.releaseDates.map((date) => ({ release_id: rid, date })),
          }),
        ),
      });
    }
  }
  return files;
}

async function writeAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

/**
 * Pulls each series' metadata, release and every ALFRED vintage (realtime window split at 2000 vintage
 * dates), one request at a time within FRED's 120/minute, and maps them like a raw directory would. The
 * raw inputs listed in `sink` are the real responses (stripped URL + sha256), never the key.
 */
export async function ingestFredLive(sink: AtomicSink, options: FredLiveOptions): Promise<FredLiveSummary> {
  const client =
    options.fredClient ?? createFredClient({ ...options.client, log: options.client?.log ?? options.log });
  const log = options.log ?? (() => {});
  const summary: FredLiveSummary = {
    series: [],
    files: 0,
    unused: [],
    requests: 0,
    retries: 0,
    cacheHits: 0,
    failed: [],
  };
  // Inputs come from the real responses; the synthesized raw files only carry the parsed content.
  const quiet: AtomicSink = {
    addSeries: (s) => sink.addSeries(s),
    addObservation: (o) => sink.addObservation(o),
    addObservations: (c) => sink.addObservations(c),
    addWithdrawal: (o) => sink.addWithdrawal(o),
    addCorporateAction: (c) => sink.addCorporateAction(c),
    addMembership: (m) => sink.addMembership(m),
    addInput: () => {},
    addWarning: (w) => sink.addWarning(w),
    addAccounting: (a) => sink.addAccounting(a),
  };
  if (options.saveRawDir !== undefined) await mkdir(options.saveRawDir, { recursive: true });
  try {
    const ids = [...new Set(options.series)];
    for (const [i, fredId] of ids.entries()) {
      try {
        const bundle = await client.fetchSeries(fredId, { releaseDates: options.releaseDates === true });
        const files = bundleToRawFiles(bundle);
        const part = ingestFredRawFiles(files, quiet, { ...options, series: [fredId] });
        for (const r of bundle.responses) {
          sink.addInput({
            source: options.inputSource ?? 'fred',
            key: r.url,
            sha256: r.sha256,
            bytes: r.bytes,
          });
        }
        summary.series.push(...part.series);
        summary.files += bundle.responses.length;
        if (options.saveRawDir !== undefined) {
          for (const f of files) await writeAtomic(join(options.saveRawDir, f.name), f.bytes);
        }
        const s = part.series[0];
        log(
          `[fred] ${i + 1}/${ids.length} ${fredId}: ${s?.observations ?? 0} vintage rows, ` +
            `${bundle.vintageDates.length} vintage dates, ${bundle.windows.length} realtime window(s)`,
        );
      } catch (error) {
        const goOn = options.continueOnError === true || options.catalogRun !== undefined;
        // No network is not a per-series failure: every other series would fail the same way.
        if (!goOn || !(error instanceof AsofError) || error.code === 'HTTP_UNREACHABLE') throw error;
        const message = oneLineMessage(error.message);
        summary.failed.push({ fredId, code: error.code, message });
        sink.addWarning({ code: 'FRED_SERIES_FAILED', message: `${fredId}: ${message}`, count: 1 });
        log(`[fred] ${i + 1}/${ids.length} ${fredId}: skipped (${error.code})`);
      }
    }
  } finally {
    const st = client.stats();
    summary.requests = st.requests;
    summary.retries = st.retries;
    summary.cacheHits = st.cacheHits;
    if (options.fredClient === undefined) await client.close();
  }
  if (options.catalogRun !== undefined)
    checkCatalogRun(summary, new Set(options.series).size, options.catalogRun, sink);
  return summary;
}

/**
 * The catalog rule: a catalog run that lost series is an error, unless the user allowed a partial run;
 * even then more than half failing is an error (something is wrong with the key, the network or FRED,
 * not with a few series). A partial run lists the failed ids in one warning.
 */
function checkCatalogRun(
  summary: FredLiveSummary,
  requested: number,
  catalog: { allowPartial: boolean },
  sink: AtomicSink,
): void {
  const failed = summary.failed;
  if (failed.length === 0) return;
  const first = `${failed[0].fredId}: ${failed[0].message.replace(/\s*\n\s*/g, ' ')}`;
  const ids = failed.map((f) => f.fredId);
  const shown = `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? `, … (${ids.length - 10} more)` : ''}`;
  if (!catalog.allowPartial || failed.length * 2 > requested) {
    throw new AsofError(
      'FRED_CATALOG_INCOMPLETE',
      `FRED catalog run: ${failed.length} of ${requested} series failed (${shown}); first: ${first}. ` +
        (catalog.allowPartial
          ? 'More than half failed, which --allow-partial does not accept: fix the cause and rerun (fetched responses are cached)'
          : `Rerun (fetched responses are cached), or pass --allow-partial (pipeline: sources.fred.allow_partial) to build from the ${requested - failed.length} that succeeded`),
      { context: { failed: ids, requested } },
    );
  }
  sink.addWarning({
    code: 'FRED_CATALOG_PARTIAL',
    message: `FRED catalog run with --allow-partial: ${failed.length} of ${requested} series failed and are missing: ${ids.join(', ')}`,
    count: failed.length,
  });
}
