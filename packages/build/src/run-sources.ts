import { resolve } from 'node:path';
import type { Duck } from '@asof/duck';
import { createHttpClient } from '@asof/http';
import { runInterruptibly } from '@asof/output';
import { AsofError, type AtomicSink, InputError, type PipelineConfig, shownValue } from '@asof/schema';
import {
  ingestEdgarLive,
  ingestEdgarRawDir,
  ingestSyntheticEdgar,
  requireSecUserAgent,
} from '@asof/source-edgar';
import { ingestEmbedded } from '@asof/source-embedded';
import {
  ingestFredLive,
  ingestFredRawDir,
  ingestSyntheticAlfred,
  resolveFredApiKey,
} from '@asof/source-fred';
import { ingestFredmdRawDir } from '@asof/source-fredmd';
import {
  ingestMembershipCsv,
  ingestPricesRawDir,
  ingestSyntheticPrices,
  ingestYahooLive,
  summarizePriceQuality,
  YAHOO_CHART_BASE_URL,
} from '@asof/source-prices';
import { ingestRtdsmRawDir } from '@asof/source-rtdsm';
import { generateScaleUniverse } from '@asof/source-scale';
import { defaultRegistry, fredCatalog, type Registry } from '@asof/taxonomy';

export interface SourceReport {
  /** Per-instrument price quality rows and skipped companies, for the build summary. */
  priceQuality: ReturnType<typeof summarizePriceQuality>;
  skipped: { source: string; id: string; reason: string }[];
  /** Observation rows a source inserted into the staging tables itself (the scale source): the sink never saw them. */
  generatedRows: number;
}

/**
 * Runs every source a pipeline configures into the sink. Live paths (tickers, series, symbols) need their
 * keys from the environment; raw directories and synthetic blocks need no network.
 */
export async function runSources(
  config: PipelineConfig,
  target: AtomicSink,
  options: {
    /** Folder the pipeline's relative paths resolve against. */
    cwd: string;
    /** Where the default response cache `.asof-cache/http` lives (default: cwd). */
    cacheRoot?: string;
    log: (line: string) => void;
    /** The build's DuckDB: sources that generate inside DuckDB (scale) write the staging tables directly. */
    duck?: Duck;
    registry?: Registry;
    /** asof update runs only the sources it must read again: 0 series from them is no error then. */
    allowEmpty?: boolean;
  },
): Promise<SourceReport> {
  const report: SourceReport = { priceQuality: [], skipped: [], generatedRows: 0 };
  const { log } = options;
  checkLiveCredentials(config);
  // Every source below writes through the counting sink.
  const counted = countingSink(target);
  const sink = counted.sink;
  const cacheDir = (dir: string | undefined) =>
    dir ? resolve(options.cwd, dir) : resolve(options.cacheRoot ?? options.cwd, '.asof-cache/http');
  const src = config.sources;
  // The sources that generate or parse their rows synchronously (seconds each on a large pipeline) run
  // interruptibly: Ctrl-C acts at once instead of when the source is done (audit 1.9).
  counted.source('embedded');
  const embedded = src.embedded;
  if (embedded) await runInterruptibly(() => ingestEmbedded(embedded, sink, log));

  counted.source('edgar');
  if (src.edgar) {
    const e = src.edgar;
    const summaries = [];
    if (e.synthetic) {
      const synthetic = e.synthetic;
      summaries.push(
        await runInterruptibly(() =>
          ingestSyntheticEdgar(sink, {
            seed: synthetic.seed,
            companies: synthetic.companies,
            firstFiscalYear: synthetic.first_fiscal_year,
            fiscalYears: synthetic.fiscal_years,
          }),
        ),
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

  counted.source('fred');
  if (src.fred) {
    const f = src.fred;
    if (f.synthetic) {
      const synthetic = f.synthetic;
      const s = await runInterruptibly(() =>
        ingestSyntheticAlfred(sink, {
          seed: synthetic.seed,
          start: synthetic.start,
          end: synthetic.end,
          count: synthetic.count,
        }),
      );
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
        catalogRun: f.catalog ? { allowPartial: f.allow_partial === true } : undefined,
        log,
      });
      for (const x of s.failed)
        report.skipped.push({ source: 'fred', id: x.fredId, reason: `${x.code}: ${x.message}` });
      log(`fred: ${s.series.length} series live (${s.requests} requests, ${s.cacheHits} from cache)`);
    }
  }

  counted.source('prices');
  if (src.prices) {
    const p = src.prices;
    const map = { totalReturn: p.total_return, vendorLagMicros: p.vendor_lag_seconds * 1_000_000 };
    if (p.synthetic) {
      const seed = p.synthetic.seed;
      const results = await runInterruptibly(() => ingestSyntheticPrices(sink, { seed, map }));
      report.priceQuality.push(...summarizePriceQuality({ instruments: results }));
      log(`prices: ${results.length} synthetic Yahoo-format instruments`);
    }
    if (p.raw_dir) {
      const dir = resolve(options.cwd, p.raw_dir);
      const result = await runInterruptibly(() => ingestPricesRawDir(dir, sink, { map }));
      report.priceQuality.push(...summarizePriceQuality(result));
      // The format detected per file, so a user sees how each of their files was read.
      for (const f of result.files)
        log(`prices: ${f.file}: ${f.format}${f.symbols.length > 1 ? ` (${f.symbols.join(', ')})` : ''}`);
      for (const f of result.supportFiles) log(`prices: ${f.file}: ${f.format}`);
      log(`prices: ${result.instruments.length} instruments from ${dir}`);
    }
    for (const file of p.membership ?? []) {
      const m = await runInterruptibly(() => ingestMembershipCsv(resolve(options.cwd, file), sink, file));
      log(
        `prices: membership of ${m.entities} entities in ${m.universes.join(', ')} from ${file} (${m.shape}, ${m.changes} changes)`,
      );
    }
    if (p.symbols) {
      // Live Yahoo is the optional path: the download lands as raw files (with a download-date sidecar)
      // in the cache folder, and the same raw-directory parser reads them.
      const dir = resolve(cacheDir(p.cache_dir), 'yahoo', new Date().toISOString().slice(0, 10));
      const client = createHttpClient({
        hosts: { [new URL(YAHOO_CHART_BASE_URL).hostname]: { maxPerInterval: 2, intervalMs: 1000 } },
        log,
      });
      try {
        const result = await ingestYahooLive(sink, { symbols: p.symbols, dir, client, ingest: { map } });
        for (const f of result.failures)
          report.skipped.push({ source: 'prices', id: f.symbol, reason: f.message });
        report.priceQuality.push(...summarizePriceQuality(result));
        log(`prices: ${result.instruments.length} instruments downloaded from Yahoo`);
      } finally {
        await client.close();
      }
    }
  }

  counted.source('fredmd');
  if (src.fredmd) {
    const fredmd = src.fredmd;
    const s = await runInterruptibly(() =>
      ingestFredmdRawDir(resolve(options.cwd, fredmd.raw_dir), sink, {
        vintage: fredmd.vintage,
        registry: options.registry,
      }),
    );
    log(
      `fredmd: ${s.series.length} series from ${s.files} vintage files (${s.vintages[0] ?? '-'} … ${s.vintages.at(-1) ?? '-'}), ` +
        `${s.observations} rows (${s.revisions} revisions, ${s.withdrawals} withdrawals), ${s.unmapped.length} series not in the taxonomy`,
    );
  }
  counted.source('rtdsm');
  if (src.rtdsm) {
    const rtdsm = src.rtdsm;
    const s = await runInterruptibly(() =>
      ingestRtdsmRawDir(resolve(options.cwd, rtdsm.raw_dir), sink, {
        registry: options.registry,
      }),
    );
    log(
      `rtdsm: ${s.series.length} series from ${s.files} files, ${s.observations} rows (${s.revisions} revisions, ${s.withdrawals} withdrawals)`,
    );
  }

  if (src.scale) {
    if (!options.duck)
      throw new AsofError(
        'SCALE_NEEDS_DUCK',
        'runSources: the scale source needs options.duck (buildUniverse passes it)',
      );
    const s = await generateScaleUniverse(options.duck, src.scale, options.registry ?? defaultRegistry());
    log(`scale: ${s.series} synthetic series, ${s.rows} rows generated in DuckDB`);
    counted.generated(s.series);
    report.generatedRows += s.rows;
  }
  if (!options.allowEmpty) counted.checkNotEmpty(config.name, report.skipped);
  return report;
}

/**
 * Live credentials are checked before any source runs, so a missing or malformed key stops the build
 * at once instead of after the minutes the other sources take.
 */
function checkLiveCredentials(config: PipelineConfig): void {
  const { edgar, fred } = config.sources;
  if (edgar?.tickers) requireSecUserAgent();
  const fredLive = fred !== undefined && (fred.catalog || (fred.series?.length ?? 0) > 0);
  // An offline run without a key reads the cache alone (createFredClient needs no key then).
  if (fredLive && !(fred.offline && (process.env.ASOF_FRED_API_KEY ?? '') === '')) resolveFredApiKey();
}

/** Warning codes that say an input was left out (a file, a company, a series): what an empty build shows. */
const DROPPED_INPUT = /SKIPPED|IGNORED|FAILED|UNKNOWN|UNMAPPED|NO_VINTAGE|REFUSED|MISSING/;

/**
 * Wraps the build's sink to count what each source adds: a pipeline whose sources ran but produced no
 * series with observations (an empty raw directory, a date range without a trading day) is an error
 * naming each source's count, not an empty universe with exit 0.
 */
function countingSink(inner: AtomicSink) {
  const counts = new Map<string, { series: number; observations: number }>();
  let current = { series: 0, observations: 0 };
  let generated = 0;
  let lastId: string | undefined;
  const observed = new Set<string>();
  // The sources' warnings (a skipped file, a company without data): an empty build shows them, since it
  // fails before the manifest that would have listed them.
  const warnings: { code: string; message: string }[] = [];
  const note = (id: string) => {
    // Sources emit a series' rows together, so the set is touched once per series, not per row.
    if (id === lastId) return;
    lastId = id;
    observed.add(id);
  };
  const sink: AtomicSink = {
    addSeries: (s) => {
      current.series++;
      inner.addSeries(s);
    },
    addObservation: (o) => {
      current.observations++;
      note(o.series_id);
      inner.addObservation(o);
    },
    addObservations: (c) => {
      current.observations += c.timestamp.length;
      if (c.timestamp.length > 0) note(c.series_id);
      inner.addObservations(c);
    },
    addWithdrawal: (o) => {
      current.observations++;
      inner.addWithdrawal(o);
    },
    addCorporateAction: (a) => inner.addCorporateAction(a),
    addMembership: (m) => inner.addMembership(m),
    addInput: (i) => inner.addInput(i),
    addWarning: (w) => {
      warnings.push(w);
      inner.addWarning(w);
    },
    addAccounting: (a) => inner.addAccounting(a),
  };
  return {
    sink,
    source(name: string) {
      current = { series: 0, observations: 0 };
      counts.set(name, current);
    },
    /** Series a source generated outside the sink (scale, inside DuckDB). */
    generated(series: number) {
      generated += series;
    },
    checkNotEmpty(pipeline: string, skipped: readonly { source: string; id: string; reason: string }[]) {
      if (observed.size + generated > 0) return;
      const ran = [...counts].filter(([, c]) => c.series > 0 || c.observations > 0);
      const detail =
        ran.length === 0
          ? 'no source emitted a series'
          : ran.map(([name, c]) => `${name}: ${c.series} series, ${c.observations} observations`).join('; ');
      // What the sources skipped and why, shown here (never "see the warnings" with none in sight).
      const said = [
        ...warnings.filter((w) => DROPPED_INPUT.test(w.code)).map((w) => `${w.code}: ${w.message}`),
        ...skipped
          .filter((k) => !warnings.some((w) => w.message.includes(k.id)))
          .map((k) => `${k.source} ${k.id} skipped: ${k.reason}`),
      ];
      const shownSaid = said.slice(0, 3).map((m) => shownValue(m, 300));
      const why =
        said.length === 0
          ? 'Check the date ranges and that each raw_dir holds data files'
          : `The sources said: ${shownSaid.join('; ')}${said.length > 3 ? `; … (${said.length - 3} more)` : ''}`;
      throw new InputError(
        'NO_SERIES',
        `pipeline ${pipeline}: the sources produced 0 series with observations (${detail}); nothing to build. ${why}`,
        { context: { pipeline, counts: Object.fromEntries(counts), warnings: said } },
      );
    },
  };
}
