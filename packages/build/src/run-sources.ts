import { resolve } from 'node:path';
import type { Duck } from '@asof/duck';
import { runInterruptibly } from '@asof/output';
import { AsofError, type AtomicSink, InputError, type SkippedInput, shownValue } from '@asof/schema';
import type { Registry } from '@asof/taxonomy';
import type { PipelineConfig } from './pipeline-config.ts';
import { SOURCE_REGISTRY } from './source-registry.ts';

export interface RunSourcesReport {
  /** Per-instrument price quality rows (the prices source's PriceQualitySummaryRow), for the build summary. */
  priceQuality: unknown[];
  skipped: SkippedInput[];
  /** Observation rows a source inserted into the staging tables itself (the scale source): the sink never saw them. */
  generatedRows: number;
}

/**
 * Runs every source a pipeline configures into the sink, in the registry's order. Live paths (tickers,
 * series, symbols) need their keys from the environment; raw directories and synthetic blocks need no network.
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
): Promise<RunSourcesReport> {
  const report: RunSourcesReport = { priceQuality: [], skipped: [], generatedRows: 0 };
  const sections: Record<string, unknown> = config.sources;
  // Live credentials are checked before any source runs, so a missing or malformed key stops the build
  // at once instead of after the minutes the other sources take.
  for (const source of SOURCE_REGISTRY) {
    const section = sections[source.name];
    if (section) source.checkCredentials?.(section);
  }
  // Every source writes through the counting sink.
  const counted = countingSink(target);
  const ctx = {
    cwd: options.cwd,
    cacheDir: (dir: string | undefined) =>
      dir ? resolve(options.cwd, dir) : resolve(options.cacheRoot ?? options.cwd, '.asof-cache/http'),
    log: options.log,
    // The sources that generate or parse their rows synchronously run interruptibly (audit 1.9).
    interruptibly: runInterruptibly,
    duck: options.duck,
    registry: options.registry,
  };
  for (const source of SOURCE_REGISTRY) {
    // A source generating inside DuckDB adds nothing to the sink: it is counted by what it reports.
    if (source.rows !== 'duck') counted.source(source.name);
    const section = sections[source.name];
    if (!section) continue;
    if (source.rows === 'duck' && !options.duck)
      throw new AsofError(
        'SCALE_NEEDS_DUCK',
        `runSources: the ${source.name} source needs options.duck (buildUniverse passes it)`,
      );
    const r = await source.ingest(section, counted.sink, ctx);
    report.skipped.push(...r.skipped);
    if (r.priceQuality) report.priceQuality.push(...r.priceQuality);
    if (r.generated) {
      counted.generated(r.generated.series);
      report.generatedRows += r.generated.rows;
    }
  }
  if (!options.allowEmpty) counted.checkNotEmpty(config.name, report.skipped);
  return report;
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
