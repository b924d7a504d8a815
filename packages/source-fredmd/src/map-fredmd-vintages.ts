import type { Micros } from '@asof/calendar';
import {
  AccountingTally,
  type AtomicSink,
  emitVintageRows,
  type Frequency,
  InputError,
  SeriesInput,
  zodInputError,
} from '@asof/schema';
import { fredmdVintageAvailableAt } from './fredmd-dates.ts';
import {
  type FredmdPlacement,
  type FredmdPlacementOptions,
  FredmdPlacements,
  fredmdSeriesId,
  TCODES,
} from './fredmd-series.ts';
import type { FredmdDataset, ParsedFredmdCsv } from './parse-fredmd-csv.ts';

/** One vintage file, parsed, with the key it has in the manifest's inputs. */
export interface FredmdVintageFile {
  /** The input's key (file name relative to raw_dir). */
  name: string;
  /** `YYYY-MM`. */
  vintage: string;
  parsed: ParsedFredmdCsv;
}

export interface FredmdMapOptions extends FredmdPlacementOptions {
  /** Accounting `source` (default 'fredmd', the pipeline's name for FRED-MD and FRED-QD files). */
  accountingSource?: string;
}

export interface FredmdSeriesSummary {
  seriesId: string;
  mnemonic: string;
  dataset: FredmdDataset;
  frequency: Frequency;
  /** Rows emitted, withdrawals included. */
  observations: number;
  /** Rows after each period's first (changed values, withdrawals, values published again). */
  revisions: number;
  withdrawals: number;
}

export interface FredmdMapResult {
  series: FredmdSeriesSummary[];
  /** `dataset:mnemonic` of the series neither registry file places, sorted. */
  unmapped: string[];
  /** Value cells that are not numbers. */
  badValues: number;
}

interface Row {
  timestamp: Micros;
  period_start: Micros;
  available_at: Micros;
  value: number | null;
  source_ref: string;
}

interface SeriesState {
  seriesId: string;
  mnemonic: string;
  dataset: FredmdDataset;
  frequency: Frequency;
  placement: FredmdPlacement;
  /** tcode per vintage that carries the series (latest last). */
  tcodes: { vintage: string; tcode: string | null }[];
  /** period date → current value (null = withdrawn). */
  values: Map<string, number | null>;
  periods: Map<string, { timestamp: Micros; period_start: Micros }>;
  rows: Row[];
}

/**
 * FRED-MD/FRED-QD vintages → atomic rows (docs/decisions/0042-fredmd-vintage-availability.md). Per dataset,
 * in vintage order, each file is the whole panel as of its vintage:
 * - a value differing from the one in force (or the first for its period) is a row at the vintage's instant
 *   (`fredmdVintageAvailableAt`), basis 'vintage', source_ref `<dataset>:<vintage>`; an unchanged value
 *   published again is no row (counted mapped), as with ALFRED vintages;
 * - a value in force that a later vintage's column leaves blank is a withdrawal row at that vintage's instant
 *   (docs/decisions/0007), published again = a new row; a vintage without the column at all says nothing of
 *   the series (FRED-MD drops and re-adds series, e.g. CUSR0000SA0L2 is absent from 2016-01 only): its values
 *   stay in force, as the values of a series present only in some vintages;
 * - blank cells are not records; a non-number is dropped as `bad_value`; a series neither the FRED catalog
 *   nor macro-panels.tsv places is dropped as `unmapped_series` (out of scope, never guessed).
 * One IngestAccounting per file (record 'cell'). The `Transform:` tcode is kept in the series title, never
 * applied. Rows are emitted per series in (timestamp, available_at) order after every file is read.
 */
export function mapFredmdVintages(
  files: readonly FredmdVintageFile[],
  sink: AtomicSink,
  options: FredmdMapOptions = {},
): FredmdMapResult {
  const placements = new FredmdPlacements(options);
  const accountingSource = options.accountingSource ?? 'fredmd';
  const ordered = [...files].sort(
    (a, b) => cmp(a.parsed.dataset, b.parsed.dataset) || cmp(a.vintage, b.vintage) || cmp(a.name, b.name),
  );
  for (let k = 1; k < ordered.length; k++) {
    const [a, b] = [ordered[k - 1], ordered[k]];
    if (a.parsed.dataset === b.parsed.dataset && a.vintage === b.vintage) {
      throw new InputError(
        'FREDMD_DUPLICATE_VINTAGE',
        `${a.name} and ${b.name} are both ${a.parsed.dataset} vintage ${a.vintage}; keep one of them (or rename ` +
          'the file whose name states the wrong month)',
        { context: { file: b.name, vintage: b.vintage, other: a.name } },
      );
    }
  }
  const states = new Map<string, SeriesState>();
  const unmapped = new Map<string, number>();
  let badValues = 0;
  let firstBad: string | undefined;
  const tallies: AccountingTally[] = [];
  for (const f of ordered) {
    const { dataset, frequency, columns, rows } = f.parsed;
    const tally = new AccountingTally(accountingSource, f.name, 'cell');
    tallies.push(tally);
    const available_at = fredmdVintageAvailableAt(f.vintage);
    const source_ref = `${dataset}:${f.vintage}`;
    const seenSeries = new Map<string, Set<string>>();
    columns.forEach((col, j) => {
      const placement = placements.placement(dataset, col.mnemonic, frequency);
      const seriesId = fredmdSeriesId(dataset, col.mnemonic);
      if (placement === undefined) {
        let n = 0;
        for (const r of rows) if (r.cells[j] !== undefined) n++;
        tally.drop('unmapped_series', n);
        const key = `${dataset}:${col.mnemonic}`;
        unmapped.set(key, (unmapped.get(key) ?? 0) + n);
        return;
      }
      let s = states.get(seriesId);
      if (s === undefined) {
        s = {
          seriesId,
          mnemonic: col.mnemonic,
          dataset,
          frequency,
          placement,
          tcodes: [],
          values: new Map(),
          periods: new Map(),
          rows: [],
        };
        states.set(seriesId, s);
      } else if (s.mnemonic !== col.mnemonic) {
        throw new InputError(
          'FREDMD_SERIES_ID_CLASH',
          `${f.name}: columns ${JSON.stringify(s.mnemonic)} and ${JSON.stringify(col.mnemonic)} both become series ` +
            `${seriesId}; rename one of them`,
          { context: { file: f.name, field: col.mnemonic, value: seriesId } },
        );
      }
      s.tcodes.push({ vintage: f.vintage, tcode: col.tcode });
      const seen = new Set<string>();
      seenSeries.set(seriesId, seen);
      for (const r of rows) {
        const cell = r.cells[j];
        if (cell === undefined) continue;
        const date = r.period.date;
        if ('bad' in cell) {
          tally.drop('bad_value');
          badValues++;
          firstBad ??= `${f.name} line ${r.line}, ${col.mnemonic}: ${JSON.stringify(cell.bad)}`;
          // No information about the period: the value in force stays (no withdrawal).
          seen.add(date);
          continue;
        }
        tally.map();
        seen.add(date);
        if (!s.periods.has(date)) {
          s.periods.set(date, { timestamp: r.period.timestamp, period_start: r.period.period_start });
        }
        const prev = s.values.get(date);
        if (prev !== undefined && prev !== null && prev === cell.value) continue;
        const p = s.periods.get(date)!;
        s.rows.push({ ...p, available_at, value: cell.value, source_ref });
        s.values.set(date, cell.value);
      }
    });
    // A column is complete as of its vintage: the periods it no longer holds are withdrawn from then on.
    for (const s of states.values()) {
      if (s.dataset !== dataset) continue;
      const seen = seenSeries.get(s.seriesId);
      if (seen === undefined) continue;
      for (const [date, value] of s.values) {
        if (value === null || seen?.has(date)) continue;
        s.rows.push({ ...s.periods.get(date)!, available_at, value: null, source_ref });
        s.values.set(date, null);
      }
    }
  }
  for (const t of tallies) sink.addAccounting(t.entry());

  const series: FredmdSeriesSummary[] = [];
  let withdrawals = 0;
  let withdrawnSeries = 0;
  const tcodeChanges: string[] = [];
  for (const id of [...states.keys()].sort()) {
    const s = states.get(id)!;
    if (s.rows.length === 0) continue;
    sink.addSeries(seriesInput(s, tcodeChanges));
    const w = emitVintageRows(sink, s.seriesId, s.rows);
    withdrawals += w;
    if (w > 0) withdrawnSeries++;
    series.push({
      seriesId: s.seriesId,
      mnemonic: s.mnemonic,
      dataset: s.dataset,
      frequency: s.frequency,
      observations: s.rows.length,
      revisions: s.rows.length - s.periods.size,
      withdrawals: w,
    });
  }

  const unmappedNames = [...unmapped.keys()].sort();
  if (unmappedNames.length > 0) {
    const cells = [...unmapped.values()].reduce((a, b) => a + b, 0);
    sink.addWarning({
      code: 'FREDMD_UNMAPPED_SERIES',
      message:
        `${unmappedNames.length} FRED-MD/QD series are placed by neither the taxonomy's FRED catalog nor ` +
        `registry/macro-panels.tsv, so their ${cells} value cells were not ingested (accounting: unmapped_series): ` +
        `${unmappedNames.join(', ')}; add rows to packages/taxonomy/registry/macro-panels.tsv to ingest them`,
      count: unmappedNames.length,
    });
  }
  if (badValues > 0) {
    sink.addWarning({
      code: 'FREDMD_BAD_VALUES',
      message: `${badValues} FRED-MD/QD value cell(s) are not numbers and were dropped (accounting: bad_value); first: ${firstBad}`,
      count: badValues,
    });
  }
  if (withdrawals > 0) {
    sink.addWarning({
      code: 'FREDMD_VALUES_WITHDRAWN',
      message:
        `${withdrawals} value(s) in ${withdrawnSeries} FRED-MD/QD series were published in a vintage and absent ` +
        'from a later one (a blank cell of its column); emitted as withdrawal rows, so as-of views ' +
        'from that vintage on have no value for those periods (docs/decisions/0007, 0042)',
      count: withdrawals,
    });
  }
  const reconstructed = ordered.filter((f) => f.vintage < '2015-01');
  if (reconstructed.length > 0) {
    sink.addWarning({
      code: 'FREDMD_RECONSTRUCTED_VINTAGES',
      message:
        `${reconstructed.length} FRED-MD vintage file(s) predate 2015-01 (${reconstructed[0].vintage}…` +
        `${reconstructed[reconstructed.length - 1].vintage}): McCracken & Ng reconstructed them from ALFRED and ` +
        'published them in 2015 or later; their available_at applies the vintage rule as if each was posted then ' +
        '(docs/decisions/0042)',
      count: reconstructed.length,
    });
  }
  if (tcodeChanges.length > 0) {
    sink.addWarning({
      code: 'FREDMD_TCODE_CHANGED',
      message: `the Transform: code of ${tcodeChanges.length} series changed between vintages (the title gives the latest): ${tcodeChanges.join('; ')}`,
      count: tcodeChanges.length,
    });
  }
  return { series, unmapped: unmappedNames, badValues };
}

function seriesInput(s: SeriesState, tcodeChanges: string[]): SeriesInput {
  const latest = s.tcodes[s.tcodes.length - 1].tcode;
  const distinct = [...new Set(s.tcodes.map((t) => t.tcode ?? '-'))];
  if (distinct.length > 1) tcodeChanges.push(`${s.seriesId} ${distinct.join('→')}`);
  const panel = s.dataset === 'fredqd' ? 'FRED-QD' : 'FRED-MD';
  const tcode =
    latest === null
      ? 'no tcode'
      : `tcode ${latest}${TCODES[latest] === undefined ? '' : ` = ${TCODES[latest]}`}, not applied`;
  const input = {
    series_id: s.seriesId,
    source: 'fredmd',
    source_key: s.mnemonic,
    title: `${s.placement.title} (${panel} ${s.mnemonic}; ${tcode})`,
    unit: s.placement.unit,
    frequency: s.frequency,
    scope: s.placement.scope,
    category: s.placement.category,
    detail_category: s.placement.detail_category,
    entity_id: null,
    entity_name: null,
    currency: /dollars/i.test(s.placement.unit) ? 'USD' : null,
    seasonal_adjustment: null,
    fiscal_year_end: null,
    is_synthetic: false,
    universe_kind: 'point_in_time' as const,
  };
  const parsed = SeriesInput.safeParse(input);
  if (!parsed.success) throw zodInputError('FREDMD_BAD_SERIES', `${panel} ${s.mnemonic}`, parsed.error);
  return parsed.data;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
