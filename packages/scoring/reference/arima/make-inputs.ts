/**
 * Writes packages/baselines/reference/arima/universe-inputs.json: series of the embedded default universe for the ARIMA reference vectors
 * (make-reference.R reads them, fits forecast::auto.arima and stores the results beside the simulated ones).
 * - As-of histories: the as-of view of one series at one date (`asof show --as-of`, the values public then,
 *   one per period), placed on its quarterly or monthly grid (a period without a public value is missing).
 *   Interior gaps are also made by removing listed positions (null in the JSON): the production windows of
 *   the default splits have none (scoring audit 2026-12), so the ML-with-missing-values path is exercised.
 * - Production windows: the input window the ARIMA baseline fits at each series' first origin of the
 *   default split (`asof split --dm`), as the scorer has it (history_tail placed on the grid by
 *   history_tail_back), spread over the split's monthly, quarterly and business-day series.
 * Values are in log levels when every value is > 0 (as the ARIMA baseline models a positive window), else in
 * levels. The universe and the split are pure functions of pipelines/default.json, so the file is
 * reproducible. Issue 51.
 *
 * From the repository root (build and split take under a minute):
 *   npx asof build pipelines/default.json --out /tmp/asof-default
 *   npx asof split --manifest /tmp/asof-default/manifest.json --out /tmp/asof-default-split --dm
 *   npx tsx packages/scoring/reference/arima/make-inputs.ts /tmp/asof-default /tmp/asof-default-split
 *   npx biome format --write packages/baselines/reference/arima
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { placeOnGrid } from '@asof/baselines';
import type { Manifest } from '@asof/schema';
import { readSplitTables } from '../../src/read-split-tables.ts';

const CLI = fileURLToPath(new URL('../../../cli/bin/asof.mjs', import.meta.url));
// The inputs live beside the R script and the reference tests in @asof/baselines; this writer stays here
// because it reads the split the scorer's way (readSplitTables).
const OUT = fileURLToPath(
  new URL('../../../baselines/reference/arima/universe-inputs.json', import.meta.url),
);
const AUDIT_SERIES = 'syn:edgar:9990000030:long-term-debt:Q';

interface Input {
  name: string;
  group: 'audit' | 'quarterly' | 'monthly' | 'gaps' | 'production';
  series_id: string;
  /** The as-of date, or the split origin of a production window. */
  as_of: string;
  frequency: string;
  /** The first period of an as-of history (empty for a production window). */
  first_period: string;
  log: boolean;
  /** 0-based positions set missing (interior gaps made here); periods the as-of view lacks are missing too. */
  removed: number[];
  x: (number | null)[];
}

function asof(args: string[]): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`asof ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** Ids of a universe's series of one frequency and source, sorted. */
function seriesIds(dir: string, frequency: string, source: string): string[] {
  const rows = JSON.parse(
    asof(['series', '--data', dir, '--frequency', frequency, '--source', source, '--json']),
  ) as { series_id: string }[];
  return rows.map((r) => r.series_id).sort();
}

/** Grid position of a period label: 2019Q3 → 2019·4 + 2, 2019-07 → 2019·12 + 6. */
function gridIndex(period: string, frequency: 'Q' | 'M'): number {
  const year = Number(period.slice(0, 4));
  return frequency === 'Q'
    ? year * 4 + Number(period.slice(5)) - 1
    : year * 12 + Number(period.slice(5, 7)) - 1;
}

/** The as-of view of a series at `asOf` on its grid (oldest first, missing periods null). */
function window(dir: string, id: string, asOf: string, frequency: 'Q' | 'M') {
  const rows = JSON.parse(asof(['show', id, '--data', dir, '--as-of', asOf, '--json'])) as {
    period: string;
    value: number;
  }[];
  if (rows.length === 0) return null;
  const first = gridIndex(rows[0].period, frequency);
  const last = gridIndex(rows[rows.length - 1].period, frequency);
  const x: (number | null)[] = new Array(last - first + 1).fill(null);
  for (const r of rows) x[gridIndex(r.period, frequency) - first] = r.value;
  return { x, firstPeriod: rows[0].period };
}

/** Log levels when every value is > 0 (the baseline's rule), missing values null. */
function modelled(values: (number | null)[]): { log: boolean; x: (number | null)[] } {
  const observed = values.filter((v): v is number => v !== null);
  const log = observed.every((v) => v > 0);
  return { log, x: values.map((v) => (v === null ? null : log ? Math.log(v) : v)) };
}

function history(
  dir: string,
  name: string,
  group: Input['group'],
  id: string,
  asOf: string,
  frequency: 'Q' | 'M',
  removed: number[] = [],
): Input | null {
  const w = window(dir, id, asOf, frequency);
  if (!w) return null;
  const observed = w.x.filter((v): v is number => v !== null);
  // Too short for a search worth testing, or constant (auto.arima's own early exits are covered elsewhere).
  if (observed.length < 16 || observed.every((v) => v === observed[0])) return null;
  const { log, x } = modelled(w.x.map((v, i) => (removed.includes(i) ? null : v)));
  return { name, group, series_id: id, as_of: asOf, frequency, first_period: w.firstPeriod, log, removed, x };
}

/** Every k-th element from `from` (k = ⌊length/count⌋), at most `count`. */
function spread<T>(xs: T[], count: number, from = 0): T[] {
  const k = Math.max(1, Math.floor(xs.length / count));
  const out: T[] = [];
  for (let i = from; i < xs.length && out.length < count; i += k) out.push(xs[i]);
  return out;
}

/** The audit's case, short quarterly and monthly as-of histories, and histories with gaps made in them. */
function histories(dir: string): Input[] {
  const inputs: Input[] = [];
  const push = (i: Input | null) => {
    if (i) inputs.push(i);
  };
  // Mismatch 3 of the audit: its R picked ARIMA(2,1,2) with drift, asof ARIMA(0,1,0).
  push(history(dir, 'audit:long-term-debt-Q@2019-12-31', 'audit', AUDIT_SERIES, '2019-12-31', 'Q'));
  // Short quarterly EDGAR histories (20–45 values), at four as-of dates.
  const quarterly = seriesIds(dir, 'Q', 'edgar').filter((id) => id !== AUDIT_SERIES);
  const dates = ['2018-12-31', '2019-12-31', '2021-06-30', '2023-12-31'];
  spread(quarterly, 40).forEach((id, i) => {
    if (inputs.filter((c) => c.group === 'quarterly').length < 29) {
      const asOf = dates[i % dates.length];
      push(history(dir, `q:${id}@${asOf}`, 'quarterly', id, asOf, 'Q'));
    }
  });
  // Monthly FRED-style histories of 71–179 values.
  const monthly = seriesIds(dir, 'M', 'fred');
  const monthDates = ['2010-12-31', '2013-06-30', '2016-12-31', '2019-12-31'];
  spread(monthly, 10).forEach((id, i) => {
    const asOf = monthDates[i % monthDates.length];
    push(history(dir, `m:${id}@${asOf}`, 'monthly', id, asOf, 'M'));
  });
  // Interior gaps: quarterly and monthly histories with positions removed (never the first or last value).
  spread(quarterly, 6, 1).forEach((id, i) => {
    const asOf = dates[(i + 1) % dates.length];
    const n = window(dir, id, asOf, 'Q')?.x.length ?? 0;
    const removed = i % 2 ? [Math.floor(n / 2)] : [Math.floor(n / 3), Math.floor(n / 3) + 1, n - 3];
    if (n) push(history(dir, `gap-q:${id}@${asOf}`, 'gaps', id, asOf, 'Q', removed));
  });
  spread(monthly, 5, 1).forEach((id, i) => {
    const asOf = monthDates[(i + 2) % monthDates.length];
    const n = window(dir, id, asOf, 'M')?.x.length ?? 0;
    const half = Math.floor(n / 2);
    const removed = [Math.floor(n / 4), half, half + 1, half + 2, n - 2];
    if (n) push(history(dir, `gap-m:${id}@${asOf}`, 'gaps', id, asOf, 'M', removed));
  });
  return inputs;
}

/**
 * The window the baseline fits at each series' first origin of the split (the refit), for `count` series
 * of each frequency spread over their sorted ids.
 */
async function productionWindows(splitDir: string, counts: Record<string, number>): Promise<Input[]> {
  const manifest = JSON.parse(readFileSync(join(splitDir, 'manifest.json'), 'utf8')) as Manifest;
  const split = await readSplitTables(manifest, splitDir);
  const frequencyOf = new Map((split.tasks ?? []).map((t) => [t.series_id, t.frequency]));
  const first = new Map<string, (typeof split.origins)[number]>();
  for (const o of split.origins) {
    const seen = first.get(o.series_id);
    if (!seen || Date.parse(o.origin) < Date.parse(seen.origin)) first.set(o.series_id, o);
  }
  const out: Input[] = [];
  for (const [frequency, count] of Object.entries(counts)) {
    const ids = [...first.keys()].filter((id) => frequencyOf.get(id) === frequency).sort();
    for (const id of spread(ids, count)) {
      const o = first.get(id)!;
      const { values } = placeOnGrid(o.history_tail ?? [o.last_value], o.history_tail_back ?? null);
      const { log, x } = modelled(Array.from(values, (v) => (Number.isNaN(v) ? null : v)));
      const origin = new Date(Date.parse(o.origin)).toISOString();
      const name = `prod:${id}@${origin.slice(0, 10)}`;
      out.push({
        name,
        group: 'production',
        series_id: id,
        as_of: origin,
        frequency,
        first_period: '',
        log,
        removed: [],
        x,
      });
    }
  }
  return out;
}

async function main(): Promise<void> {
  const [dir, splitDir] = process.argv.slice(2);
  if (!dir || !splitDir)
    throw new Error('usage: npx tsx packages/scoring/reference/arima/make-inputs.ts UNIVERSE_DIR SPLIT_DIR');
  const inputs = histories(dir);
  // The windows the baseline itself fits (the audit's largest block): every monthly series (12 values),
  // 154 quarterly (4 values) and 53 business-day ones (260 values: auto.arima's CSS approximation).
  inputs.push(...(await productionWindows(splitDir, { M: 20, Q: 154, BD: 53 })));
  writeFileSync(
    OUT,
    `${JSON.stringify({ generator: 'packages/scoring/reference/arima/make-inputs.ts', inputs })}\n`,
  );
  const count = (g: string) => inputs.filter((c) => c.group === g).length;
  console.log(
    `wrote ${inputs.length} inputs (audit ${count('audit')}, quarterly ${count('quarterly')}, monthly ${count('monthly')}, gaps ${count('gaps')}, production ${count('production')}) to ${OUT}`,
  );
}

await main();
