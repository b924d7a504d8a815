import { BIGINT, BOOLEAN, DOUBLE, type Duck, INTEGER, type TableAppender, VARCHAR } from '@asof/duck';
import {
  type AtomicSink,
  type BuildWarning,
  type CorporateActionRow,
  type IngestAccounting,
  InputError,
  implausibleValueProblem,
  MAX_ABS_VALUE,
  MEMBERSHIP_SOURCES,
  type MembershipRow,
  type ObservationColumns,
  type ObservationRow,
  observationRowsOf,
  type RawInput,
  SeriesInput,
  type WithdrawalRow,
  zodInputError,
} from '@asof/schema';

const SERIES_TYPES = [
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  BOOLEAN,
  VARCHAR,
  BIGINT,
];
const OBS_TYPES = [INTEGER, DOUBLE, DOUBLE, DOUBLE, INTEGER, INTEGER, DOUBLE];
const CA_TYPES = [VARCHAR, VARCHAR, VARCHAR, DOUBLE, DOUBLE, VARCHAR, BIGINT];
const MEMBERSHIP_TYPES = [
  VARCHAR,
  VARCHAR,
  DOUBLE,
  DOUBLE,
  DOUBLE,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  VARCHAR,
  BIGINT,
];

interface SeriesOrder {
  /** The last staged timestamp (µs). */
  last: number;
  rows: number;
  increasing: boolean;
}

function newOrder(): SeriesOrder {
  return { last: -Infinity, rows: 0, increasing: true };
}

/** A value that is null (a withdrawal) or plausible, at finite instants. */
function isValidRow(timestamp: number, availableAt: number, value: number | null): boolean {
  return (
    (value === null || Math.abs(value) < MAX_ABS_VALUE) &&
    Number.isFinite(timestamp) &&
    Number.isFinite(availableAt)
  );
}

/**
 * The build's AtomicSink: validates each row once at the edge and appends it to the DuckDB staging tables
 * (models/stg_tables.sql). Sources already name file and row in their own errors; this catches what
 * slipped through (a NaN, a missing available_at) and names the series and the row's position.
 */
export class StageSink implements AtomicSink {
  readonly inputs: RawInput[] = [];
  readonly warnings: BuildWarning[] = [];
  readonly accounting: IngestAccounting[] = [];
  private seq = 0;
  private readonly keys = {
    series: new Map<string, number>(),
    basis: new Map<string, number>(),
    ref: new Map<string, number>(),
  };
  private readonly row: (number | null)[] = new Array(7);
  /**
   * Per series key, the rows staged and whether their timestamps rose strictly in staging order so far: such
   * a series has one row per timestamp, so observation_rows needs no window over it (stg_single_vintage).
   */
  private readonly order = new Map<number, SeriesOrder>();

  private constructor(
    private readonly series: TableAppender,
    private readonly observations: TableAppender,
    private readonly actions: TableAppender,
    private readonly keyTable: TableAppender,
    private readonly membership: TableAppender,
    private readonly singleVintage: TableAppender,
    private readonly periods: TableAppender,
  ) {}

  static async create(duck: Duck): Promise<StageSink> {
    return new StageSink(
      await duck.openAppender('stg_series', SERIES_TYPES),
      await duck.openAppender('stg_observations', OBS_TYPES),
      await duck.openAppender('stg_corporate_actions', CA_TYPES),
      await duck.openAppender('stg_keys', [VARCHAR, INTEGER, VARCHAR]),
      await duck.openAppender('stg_membership', MEMBERSHIP_TYPES),
      await duck.openAppender('stg_single_vintage', [INTEGER, BIGINT]),
      await duck.openAppender('stg_observation_periods', [INTEGER, DOUBLE, DOUBLE]),
    );
  }

  /** The last key looked up per kind: runs of one basis and source_ref are common (and of one series, for most sources). */
  private readonly lastKey = {
    series: { text: '', k: -1 },
    basis: { text: '', k: -1 },
    ref: { text: '', k: -1 },
  };

  private key(kind: keyof StageSink['keys'], text: string): number {
    const last = this.lastKey[kind];
    if (last.k >= 0 && last.text === text) return last.k;
    const map = this.keys[kind];
    let k = map.get(text);
    if (k === undefined) {
      k = map.size;
      map.set(text, k);
      this.keyTable.push([kind, k, text]);
    }
    last.text = text;
    last.k = k;
    return k;
  }

  get observationCount(): number {
    return this.observations.rows;
  }

  private watch: { rows: number; callback: () => void } | undefined;

  /** Calls `callback` once, as soon as `rows` observation rows are staged (e.g. to start work a big universe needs). */
  whenObservations(rows: number, callback: () => void): void {
    this.watch = { rows, callback };
    this.checkWatch();
  }

  private checkWatch(): void {
    if (this.watch === undefined || this.observations.rows < this.watch.rows) return;
    const { callback } = this.watch;
    this.watch = undefined;
    callback();
  }

  addSeries(input: SeriesInput): void {
    const parsed = SeriesInput.safeParse(input);
    if (!parsed.success)
      throw zodInputError('SERIES_INVALID', `series ${JSON.stringify(input.series_id)}`, parsed.error);
    const s = parsed.data;
    this.series.push([
      s.series_id,
      s.source,
      s.source_key,
      s.title,
      s.unit,
      s.frequency,
      s.scope,
      s.category,
      s.detail_category,
      s.entity_id,
      s.entity_name,
      s.currency,
      s.seasonal_adjustment,
      s.fiscal_year_end,
      s.is_synthetic,
      s.universe_kind,
      BigInt(this.seq++),
    ]);
  }

  addObservation(o: ObservationRow): void {
    this.push(o, o.value);
  }

  /** A withdrawal is staged as a row with value NULL (docs/decisions/0007-withdrawal-rows.md). */
  addWithdrawal(o: WithdrawalRow): void {
    this.push(o, null);
  }

  /** The same rows as one addObservation each, appended a chunk at a time. */
  addObservations(c: ObservationColumns): void {
    const n = c.timestamp.length;
    if (c.available_at.length !== n || c.value.length !== n) {
      throw new InputError(
        'OBSERVATION_INVALID',
        `series ${c.series_id}: ${n} timestamps, ${c.available_at.length} available_at and ${c.value.length} values; expected one of each per row`,
        { context: { series_id: c.series_id } },
      );
    }
    if (n === 0) return;
    for (let i = 0; i < n; i++) {
      const value = c.value[i];
      if (!isValidRow(c.timestamp[i], c.available_at[i], value)) {
        throw this.invalidRow(observationRowsOf(c)[i], value, this.observations.rows + i + 1);
      }
    }
    const seq = new Float64Array(n);
    for (let i = 0; i < n; i++) seq[i] = this.seq + i;
    this.seq += n;
    const seriesKey = this.key('series', c.series_id);
    const ts = c.timestamp;
    let rising = true;
    for (let i = 1; rising && i < n; i++) rising = ts[i] > ts[i - 1];
    this.noteOrder(seriesKey, ts[0], ts[n - 1], n, rising);
    this.observations.pushColumns(
      [
        seriesKey,
        c.timestamp,
        c.available_at,
        c.value,
        this.key('basis', c.available_at_basis),
        this.key('ref', c.source_ref),
        seq,
      ],
      n,
    );
    this.checkWatch();
  }

  private push(o: WithdrawalRow, value: number | null): void {
    if (!isValidRow(o.timestamp, o.available_at, value)) {
      throw this.invalidRow(o, value, this.observations.rows + 1);
    }
    const row = this.row;
    const seriesKey = this.key('series', o.series_id);
    this.noteOrder(seriesKey, o.timestamp, o.timestamp, 1, true);
    const seq = this.seq++;
    row[0] = seriesKey;
    row[1] = o.timestamp;
    row[2] = o.available_at;
    row[3] = value;
    row[4] = this.key('basis', o.available_at_basis);
    row[5] = this.key('ref', o.source_ref);
    row[6] = seq;
    this.observations.push(row);
    if (o.period_start !== null) this.periods.push([seriesKey, seq, o.period_start]);
    if (this.watch !== undefined) this.checkWatch();
  }

  /** Notes `rows` staged rows of a series, from `first` to `last`, whose timestamps rise within them when `rising`. */
  private noteOrder(seriesKey: number, first: number, last: number, rows: number, rising: boolean): void {
    let order = this.order.get(seriesKey);
    if (order === undefined) {
      order = newOrder();
      this.order.set(seriesKey, order);
    }
    order.increasing &&= rising && first > order.last;
    order.last = last;
    order.rows += rows;
  }

  /** The error for observation number `position` (1-based, in staging order), which isValidRow refused. */
  private invalidRow(o: WithdrawalRow, value: number | null, position: number): InputError {
    const field =
      value !== null && !(Math.abs(value) < MAX_ABS_VALUE)
        ? 'value'
        : !Number.isFinite(o.timestamp)
          ? 'timestamp'
          : 'available_at';
    const got = field === 'value' ? value : o[field];
    // Sources refuse absurd values with their file and row; this is the backstop for any that does not.
    const problem =
      field === 'value' && Number.isFinite(got)
        ? implausibleValueProblem(got as number)
        : `${field} must be a finite number, got ${String(got)}`;
    return new InputError(
      'OBSERVATION_INVALID',
      `series ${o.series_id}, observation #${position} (source_ref ${o.source_ref}): ${problem}`,
      { context: { series_id: o.series_id, field, value: got } },
    );
  }

  addCorporateAction(a: CorporateActionRow): void {
    this.actions.push([
      a.entity_id,
      a.ex_date,
      a.kind,
      a.value,
      a.available_at,
      a.source_ref,
      BigInt(this.seq++),
    ]);
  }

  /**
   * Sources build membership intervals from checked raw rows; this is the backstop for an interval that
   * ends before it starts or an instant that is not a number, naming the entity and the source row.
   */
  addMembership(m: MembershipRow): void {
    const instant = (v: number | null) => v === null || Number.isFinite(v);
    let problem: string | null = null;
    if (!MEMBERSHIP_SOURCES.includes(m.source)) problem = `source ${JSON.stringify(m.source)} is unknown`;
    else if (!instant(m.from) || !instant(m.to) || !instant(m.available_at))
      problem = 'from, to and available_at must be finite instants or null';
    else if (m.from !== null && m.to !== null && m.to <= m.from) problem = 'to must be after from';
    else if (m.available_at === null && m.from !== null)
      problem = 'available_at may be null only for an interval that began before the records (from null)';
    if (problem !== null) {
      throw new InputError(
        'MEMBERSHIP_INVALID',
        `membership of ${m.entity_id} in ${m.universe} (${m.source}, ${m.source_ref}): ${problem}`,
        { context: { entity_id: m.entity_id, universe: m.universe, source: m.source } },
      );
    }
    this.membership.push([
      m.entity_id,
      m.universe,
      m.from,
      m.to,
      m.available_at,
      m.source,
      m.source_ref,
      m.effective_from,
      m.effective_to,
      BigInt(this.seq++),
    ]);
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

  /** Flushes every buffered row; call once all sources have run. */
  close(): void {
    for (const [key, order] of this.order) {
      if (order.increasing) this.singleVintage.push([key, BigInt(order.rows)]);
    }
    this.singleVintage.close();
    this.periods.close();
    this.series.close();
    this.observations.close();
    this.actions.close();
    this.keyTable.close();
    this.membership.close();
  }
}
