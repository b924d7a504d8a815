import type { AvailableAtBasis, SeriesInput } from './observation.ts';

/** Epoch microseconds (exact in a double until 2^53 µs ≈ year 2255). */
export type Micros = number;

/** One observation as sources emit it. Grain (series_id, timestamp, available_at). */
export interface ObservationRow {
  series_id: string;
  timestamp: Micros;
  period_start: Micros | null;
  available_at: Micros;
  /** A finite number. Missing values are not emitted (never 0); a withdrawn value is a WithdrawalRow. */
  value: number;
  available_at_basis: AvailableAtBasis;
  source_ref: string;
}

/**
 * Observations of one series sharing basis and source_ref (and no period_start), as columns in emission
 * order: the bulk form of addObservation for sources that generate whole arrays (the synthetic price
 * panel). Row i is the ObservationRow { series_id, timestamp: timestamp[i], period_start: null,
 * available_at: available_at[i], value: value[i], available_at_basis, source_ref }.
 */
export interface ObservationColumns {
  series_id: string;
  timestamp: Float64Array;
  available_at: Float64Array;
  value: Float64Array;
  available_at_basis: AvailableAtBasis;
  source_ref: string;
}

/** The rows of `c`, one ObservationRow each, in order. */
export function observationRowsOf(c: ObservationColumns): ObservationRow[] {
  return Array.from(c.timestamp, (timestamp, i) => ({
    series_id: c.series_id,
    timestamp,
    period_start: null,
    available_at: c.available_at[i],
    value: c.value[i],
    available_at_basis: c.available_at_basis,
    source_ref: c.source_ref,
  }));
}

/**
 * A withdrawal (tombstone): from `available_at` on, the source no longer publishes the value it published
 * earlier for this (series_id, timestamp) (e.g. an ALFRED vintage saying "." after a number, like BEA
 * dropping 1946 GDP in 1999). Stored as an observation row with value NULL; as-of views return no row for a
 * key whose current vintage is a withdrawal. Emit one only after a row with a value of the same key, never for
 * values that are simply missing. See docs/decisions/0007-withdrawal-rows.md.
 */
export type WithdrawalRow = Omit<ObservationRow, 'value'>;

export interface CorporateActionRow {
  entity_id: string;
  /** Ex-date as YYYY-MM-DD in the exchange's time zone. */
  ex_date: string;
  kind: 'split' | 'dividend';
  /** Split ratio new/old (4 for a 4:1 split) or cash dividend per share. */
  value: number;
  available_at: Micros;
  source_ref: string;
}

/**
 * Where a membership interval came from (docs/decisions/0021-point-in-time-membership.md):
 * - `membership_csv`: a user file of index membership changes with their announcement instants;
 * - `edgar_submissions`: exchange registration (8-A12B) and removal or deregistration (Form 25, 25-NSE,
 *   Form 15) filings of a company's EDGAR submissions index, at their acceptance times;
 * - `price_bars`: the first and last bar the price files of an instrument hold.
 */
export const MEMBERSHIP_SOURCES = ['membership_csv', 'edgar_submissions', 'price_bars'] as const;
export type MembershipSource = (typeof MEMBERSHIP_SOURCES)[number];

/** The universe name of exchange listing status (EDGAR and price files); index files name their own. */
export const LISTED_UNIVERSE = 'listed';

/**
 * One version of one membership interval, bitemporal like an observation: the entity is a member of
 * `universe` from `from` (inclusive) to `to` (exclusive; null = no end known), as known from
 * `available_at` on. An interval whose end becomes known later gets a second row with the same `from`, its
 * `to` and the later `available_at`; the as-of view at t takes, per interval, the row with the greatest
 * `available_at <= t`. `from` null: a member since before the source's records begin (its first row's
 * `available_at` is null too: known from the start).
 */
export interface MembershipRow {
  entity_id: string;
  universe: string;
  from: Micros | null;
  to: Micros | null;
  available_at: Micros | null;
  source: MembershipSource;
  source_ref: string;
  /** The change's effective dates as the source states them (YYYY-MM-DD), for reference; null when none. */
  effective_from: string | null;
  effective_to: string | null;
}

/** A raw input file that fed the build, listed by hash in the manifest. */
export interface RawInput {
  source: string;
  key: string;
  sha256: string;
  bytes: number;
}

/**
 * What one ingest did with one input file (docs/decisions/0041-ingest-accounting.md): every record read is
 * either mapped (it reached the universe, or repeated a value an earlier vintage already holds) or dropped
 * under exactly one reason, so `read === mapped + sum(dropped)`. Reasons are short snake_case codes
 * (`unknown_concept`, `legacy_unit`, `duration_class`, `duplicate`, `outside_date_range`, `bad_value`, …);
 * a reason that names a thing keeps its name after a colon (`unit:USD/warrant`).
 */
export interface IngestAccounting {
  /** The source as the pipeline names it (`edgar`, `fred`, `prices`, `fredmd`, `rtdsm`, `embedded`). */
  source: string;
  /** The input's key as in the manifest's inputs (a path relative to raw_dir), or a generated input's name. */
  file: string;
  /** What one record is in this file: `fact`, `observation`, `bar`, `row`, `cell`. */
  record: string;
  read: number;
  mapped: number;
  dropped: Record<string, number>;
  /**
   * Records the source could have mapped: read minus those dropped for being out of asof's scope by design
   * (a concept or series the registry does not hold). A reason that drops more than 1% of them warns.
   */
  mappable: number;
}

/**
 * Reasons that lose nothing, so they do not count against `mappable` and never warn:
 * - out of asof's scope by design: a concept or series the registry does not map, a series the pipeline did
 *   not ask for, a duration or per-share aggregate no frequency of asof holds (a 6-month year-to-date, a
 *   nine-month EPS);
 * - no value to lose: '.', '#N/A', a blank;
 * - the value is held by another record: a download next to its series' ALFRED vintages, a metadata
 *   response, a lower-priority concept of a filing that reported the period under its preferred one, an
 *   exact copy of a record already read.
 */
export const OUT_OF_SCOPE_REASONS: readonly string[] = [
  'unknown_concept',
  'unmapped_series',
  'out_of_scope',
  'not_requested',
  'duration_class',
  'nine_months_not_additive',
  'not_published',
  'superseded_by_vintages',
  'redundant_response',
  'lower_priority_concept',
  'duplicate',
];

/** A tally for one file: `map()` / `drop(reason)` per record, `entry()` at the end (read = the sum). */
export class AccountingTally {
  private mapped = 0;
  private readonly dropped = new Map<string, number>();
  constructor(
    readonly source: string,
    readonly file: string,
    readonly record: string,
  ) {}
  map(n = 1): void {
    this.mapped += n;
  }
  drop(reason: string, n = 1): void {
    if (n > 0) this.dropped.set(reason, (this.dropped.get(reason) ?? 0) + n);
  }
  entry(): IngestAccounting {
    const dropped = Object.fromEntries([...this.dropped].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const read = this.mapped + [...this.dropped.values()].reduce((a, b) => a + b, 0);
    let outOfScope = 0;
    for (const [reason, n] of this.dropped)
      if (OUT_OF_SCOPE_REASONS.includes(reason.split(':')[0])) outOfScope += n;
    return {
      source: this.source,
      file: this.file,
      record: this.record,
      read,
      mapped: this.mapped,
      dropped,
      mappable: read - outOfScope,
    };
  }
}

export interface BuildWarning {
  code: string;
  message: string;
  /** How many series or rows it concerns. */
  count?: number;
}

/**
 * Where sources put what they read. The build's implementation appends into DuckDB staging tables; tests
 * can collect into arrays. Sources check their own rows (file/row in the message) before calling.
 */
export interface AtomicSink {
  addSeries(series: SeriesInput): void;
  addObservation(row: ObservationRow): void;
  /** Rows of one series as columns (see ObservationColumns): the same rows as one addObservation each. */
  addObservations(columns: ObservationColumns): void;
  /** A withdrawal of an earlier value of the same (series_id, timestamp); see WithdrawalRow. */
  addWithdrawal(row: WithdrawalRow): void;
  addCorporateAction(row: CorporateActionRow): void;
  /** One version of a membership interval (see MembershipRow). */
  addMembership(row: MembershipRow): void;
  addInput(input: RawInput): void;
  addWarning(warning: BuildWarning): void;
  /** What one ingest did with one input file (see IngestAccounting). */
  addAccounting(entry: IngestAccounting): void;
}

/** An in-memory sink for tests and small tools. */
export class CollectingSink implements AtomicSink {
  readonly series: SeriesInput[] = [];
  readonly observations: ObservationRow[] = [];
  readonly withdrawals: WithdrawalRow[] = [];
  readonly corporateActions: CorporateActionRow[] = [];
  readonly memberships: MembershipRow[] = [];
  readonly inputs: RawInput[] = [];
  readonly warnings: BuildWarning[] = [];
  readonly accounting: IngestAccounting[] = [];
  addSeries(series: SeriesInput): void {
    this.series.push(series);
  }
  addObservation(row: ObservationRow): void {
    this.observations.push(row);
  }
  addObservations(columns: ObservationColumns): void {
    for (const row of observationRowsOf(columns)) this.addObservation(row);
  }
  addWithdrawal(row: WithdrawalRow): void {
    this.withdrawals.push(row);
  }
  addCorporateAction(row: CorporateActionRow): void {
    this.corporateActions.push(row);
  }
  addMembership(row: MembershipRow): void {
    this.memberships.push(row);
  }
  addInput(input: RawInput): void {
    this.inputs.push(input);
  }
  addWarning(warning: BuildWarning): void {
    this.warnings.push(warning);
  }
  addAccounting(entry: IngestAccounting): void {
    this.accounting.push(entry);
  }
}

/** A vintage row of one series as a vintage reader holds it: a value, or null for a withdrawal. */
export interface VintageRow {
  timestamp: Micros;
  period_start: Micros | null;
  available_at: Micros;
  value: number | null;
  source_ref: string;
}

/**
 * Emits a series' vintage rows (basis `vintage`) in (timestamp, available_at) order, a null value as a
 * withdrawal; returns how many withdrawals. Shared by the readers of vintage tables (FRED-MD, RTDSM).
 */
export function emitVintageRows(sink: AtomicSink, seriesId: string, rows: VintageRow[]): number {
  rows.sort((a, b) => a.timestamp - b.timestamp || a.available_at - b.available_at);
  let withdrawals = 0;
  for (const r of rows) {
    const base: WithdrawalRow = {
      series_id: seriesId,
      timestamp: r.timestamp,
      period_start: r.period_start,
      available_at: r.available_at,
      available_at_basis: 'vintage',
      source_ref: r.source_ref,
    };
    if (r.value === null) {
      sink.addWithdrawal(base);
      withdrawals++;
    } else sink.addObservation({ ...base, value: r.value });
  }
  return withdrawals;
}
