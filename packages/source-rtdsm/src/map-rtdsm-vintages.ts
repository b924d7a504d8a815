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
import { defaultRegistry, type MacroPanelEntry, macroPanelMap, type Registry } from '@asof/taxonomy';
import type { ParsedRtdsmCsv } from './parse-rtdsm-csv.ts';
import { type RtdsmVintage, rtdsmVintageAvailableAt } from './rtdsm-dates.ts';

export interface RtdsmFile {
  /** The input's key (file name relative to raw_dir). */
  name: string;
  parsed: ParsedRtdsmCsv;
}

export interface RtdsmMapOptions {
  /** Registry the placements come from (default `defaultRegistry()`). */
  registry?: Registry;
  /** macro-panels.tsv rows (default: the registry's). */
  panels?: readonly MacroPanelEntry[];
}

export interface RtdsmSeriesSummary {
  seriesId: string;
  variable: string;
  frequency: Frequency;
  vintages: number;
  /** Rows emitted, withdrawals included. */
  observations: number;
  revisions: number;
  withdrawals: number;
}

export interface RtdsmMapResult {
  series: RtdsmSeriesSummary[];
  /** Variables macro-panels.tsv does not place (their cells: `unmapped_series`). */
  unmapped: string[];
  badValues: number;
}

/** `rtdsm:<VARIABLE>` (ROUTPUT, RUC, …). */
export function rtdsmSeriesId(variable: string): string {
  return `rtdsm:${variable.replace(/[^A-Za-z0-9_.-]+/g, '_')}`;
}

interface Column {
  file: RtdsmFile;
  index: number;
  vintage: RtdsmVintage;
  frequency: Frequency;
}

interface Row {
  timestamp: Micros;
  period_start: Micros;
  available_at: Micros;
  value: number | null;
  source_ref: string;
}

/**
 * RTDSM vintage columns → atomic rows (docs/decisions/0043-rtdsm-vintage-dates.md). Per variable, in vintage
 * order (a variable's columns may span files), each column is the whole series as of its vintage: a value
 * that differs from the one in force (or is a period's first) is a row at `rtdsmVintageAvailableAt`, basis
 * 'vintage', source_ref `rtdsm:<column>`; an unchanged value is no row (counted mapped); a value in force that
 * a later vintage holds no more (`#N/A`) is a withdrawal row (0007). Base-year changes are revisions of the
 * one series. Empty and `#N/A` cells are not records; non-numbers are `bad_value`; a variable
 * macro-panels.tsv does not place is `unmapped_series`. One IngestAccounting per file (record 'cell').
 */
export function mapRtdsmVintages(
  files: readonly RtdsmFile[],
  sink: AtomicSink,
  options: RtdsmMapOptions = {},
): RtdsmMapResult {
  const panels = options.panels ?? macroPanelMap(options.registry ?? defaultRegistry());
  const tallies = new Map(files.map((f) => [f.name, new AccountingTally('rtdsm', f.name, 'cell')]));
  const byVariable = new Map<string, Column[]>();
  for (const file of files) {
    const frequency = file.parsed.rows[0]?.period.frequency;
    file.parsed.vintages.forEach((vintage, index) => {
      if (frequency === undefined) return;
      const list = byVariable.get(vintage.variable) ?? [];
      list.push({ file, index, vintage, frequency });
      byVariable.set(vintage.variable, list);
    });
  }
  const series: RtdsmSeriesSummary[] = [];
  const unmapped: string[] = [];
  let badValues = 0;
  let firstBad: string | undefined;
  for (const variable of [...byVariable.keys()].sort()) {
    const columns = byVariable.get(variable)!.sort((a, b) => a.vintage.order - b.vintage.order);
    const frequency = columns[0].frequency;
    for (let k = 1; k < columns.length; k++) {
      const [a, b] = [columns[k - 1], columns[k]];
      if (b.frequency !== frequency) {
        throw new InputError(
          'RTDSM_FREQUENCY_CLASH',
          `${b.file.name}: ${variable} has ${b.frequency === 'Q' ? 'quarterly' : 'monthly'} observations but ` +
            `${columns[0].file.name} has ${frequency === 'Q' ? 'quarterly' : 'monthly'} ones; one series is one frequency, ` +
            'keep one of the files (e.g. the monthly-observation RUC file, not the quarterly averages)',
          { context: { file: b.file.name, field: b.vintage.column, value: variable } },
        );
      }
      if (a.vintage.order === b.vintage.order) {
        throw new InputError(
          'RTDSM_DUPLICATE_VINTAGE',
          `${b.file.name}: vintage ${b.vintage.column} is also in ${a.file.name}; keep it in one file`,
          { context: { file: b.file.name, field: b.vintage.column, value: b.vintage.column } },
        );
      }
    }
    const place = panels.find(
      (p) => p.dataset === 'rtdsm' && p.mnemonic === variable && p.frequency === frequency,
    );
    if (place === undefined) {
      unmapped.push(variable);
      for (const c of columns) {
        let n = 0;
        for (const r of c.file.parsed.rows) if (r.cells[c.index] !== undefined) n++;
        tallies.get(c.file.name)!.drop('unmapped_series', n);
      }
      continue;
    }
    const seriesId = rtdsmSeriesId(variable);
    const values = new Map<string, number | null>();
    const periods = new Map<string, { timestamp: Micros; period_start: Micros }>();
    const rows: Row[] = [];
    for (const c of columns) {
      const tally = tallies.get(c.file.name)!;
      const available_at = rtdsmVintageAvailableAt(c.vintage);
      const source_ref = `rtdsm:${c.vintage.column}`;
      const seen = new Set<string>();
      for (const r of c.file.parsed.rows) {
        const cell = r.cells[c.index];
        if (cell === undefined) continue;
        const date = r.period.date;
        seen.add(date);
        if ('bad' in cell) {
          tally.drop('bad_value');
          badValues++;
          firstBad ??= `${c.file.name} line ${r.line}, ${c.vintage.column}: ${JSON.stringify(cell.bad)}`;
          continue;
        }
        tally.map();
        if (!periods.has(date))
          periods.set(date, { timestamp: r.period.timestamp, period_start: r.period.period_start });
        const prev = values.get(date);
        if (prev !== undefined && prev !== null && prev === cell.value) continue;
        rows.push({ ...periods.get(date)!, available_at, value: cell.value, source_ref });
        values.set(date, cell.value);
      }
      for (const [date, value] of values) {
        if (value === null || seen.has(date)) continue;
        rows.push({ ...periods.get(date)!, available_at, value: null, source_ref });
        values.set(date, null);
      }
    }
    if (rows.length === 0) continue;
    sink.addSeries(seriesInput(seriesId, variable, frequency, place, columns));
    const withdrawals = emitVintageRows(sink, seriesId, rows);
    series.push({
      seriesId,
      variable,
      frequency,
      vintages: columns.length,
      observations: rows.length,
      revisions: rows.length - periods.size,
      withdrawals,
    });
  }
  for (const f of files) sink.addAccounting(tallies.get(f.name)!.entry());
  if (unmapped.length > 0) {
    sink.addWarning({
      code: 'RTDSM_UNMAPPED_SERIES',
      message:
        `${unmapped.length} RTDSM variable(s) are not placed by registry/macro-panels.tsv at their frequency, so their ` +
        `cells were not ingested (accounting: unmapped_series): ${unmapped.join(', ')}; add rows to ` +
        'packages/taxonomy/registry/macro-panels.tsv to ingest them',
      count: unmapped.length,
    });
  }
  if (badValues > 0) {
    sink.addWarning({
      code: 'RTDSM_BAD_VALUES',
      message: `${badValues} RTDSM value cell(s) are not numbers and were dropped (accounting: bad_value); first: ${firstBad}`,
      count: badValues,
    });
  }
  const withdrawn = series.reduce((a, s) => a + s.withdrawals, 0);
  if (withdrawn > 0) {
    sink.addWarning({
      code: 'RTDSM_VALUES_WITHDRAWN',
      message:
        `${withdrawn} RTDSM value(s) were published in a vintage and #N/A in a later one (e.g. a benchmark vintage ` +
        'starting its history later); emitted as withdrawal rows (docs/decisions/0007, 0043)',
      count: withdrawn,
    });
  }
  return { series, unmapped, badValues };
}

function seriesInput(
  seriesId: string,
  variable: string,
  frequency: Frequency,
  place: MacroPanelEntry,
  columns: readonly Column[],
): SeriesInput {
  const first = columns[0].vintage.column;
  const last = columns[columns.length - 1].vintage.column;
  const input = {
    series_id: seriesId,
    source: 'rtdsm',
    source_key: variable,
    title: `${place.title}, vintages ${first}…${last}`,
    unit: place.unit,
    frequency,
    scope: place.scope,
    category: place.category,
    detail_category: place.detail_category,
    entity_id: null,
    entity_name: null,
    currency: /dollars/i.test(place.unit) ? 'USD' : null,
    seasonal_adjustment: null,
    fiscal_year_end: null,
    is_synthetic: false,
    universe_kind: 'point_in_time' as const,
  };
  const parsed = SeriesInput.safeParse(input);
  if (!parsed.success) throw zodInputError('RTDSM_BAD_SERIES', `RTDSM ${variable}`, parsed.error);
  return parsed.data;
}
