import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { badInstantMessage, endOfDayMicros, isoDateProblem, isoToMicros, zonedMicros } from '@asof/calendar';
import {
  AccountingTally,
  type AtomicSink,
  hasControlChars,
  InputError,
  LISTED_UNIVERSE,
  type MembershipRow,
  type Micros,
  printable,
} from '@asof/schema';
import { splitCsvLine } from './parse-user-csv.ts';

/** The columns of a membership file; `note` is optional, the others required (any order, any case). */
/** The input label of an index membership file: `asof update` compares these by their pipeline path. */
export const MEMBERSHIP_INPUT = 'prices:membership';

export const MEMBERSHIP_CSV_COLUMNS = [
  'entity_id',
  'universe',
  'action',
  'effective_date',
  'announced',
] as const;

/** One checked row of a membership file. */
export interface MembershipChange {
  entity_id: string;
  universe: string;
  action: 'add' | 'remove';
  effective_date: string;
  /** The announcement instant: as given, or 23:59:59.999999 New York of a date given without a time. */
  announced: Micros;
  note: string | null;
  /** 1-based line in the file. */
  row: number;
}

const ENTITY_ID = /^[A-Za-z0-9:_.\-/^=]+$/;
const UNIVERSE = /^[a-z0-9][a-z0-9_.-]*$/;

function fail(code: string, file: string, row: number, field: string, value: string, problem: string): never {
  throw new InputError(
    code,
    `${file} line ${row}, field ${field}: ${printable(value)} ${problem}; fix or remove the row`,
    {
      context: { file, row, field, value },
    },
  );
}

/**
 * Parses an index membership file (columns documented in packages/source-prices/README.md): one row per
 * change, `add` or `remove`, with its effective date and the date or instant it was announced. Dates and
 * instants are read strictly (2021-02-30 and a zone-less time are errors); every error is one line naming
 * the file, line and field.
 */
export function parseMembershipCsv(text: string, file: string): MembershipChange[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '', ',').map((h) => h.trim().toLowerCase());
  const index = new Map<string, number>();
  for (const name of [...MEMBERSHIP_CSV_COLUMNS, 'note']) {
    const k = header.indexOf(name);
    if (k >= 0) index.set(name, k);
    else if (name !== 'note') {
      throw new InputError(
        'MEMBERSHIP_CSV_MISSING_COLUMN',
        `${file} line 1: no column ${name}; the header must name ${MEMBERSHIP_CSV_COLUMNS.join(', ')} (and optionally note), got ${JSON.stringify(lines[0] ?? '')}`,
        { context: { file, row: 1, field: name } },
      );
    }
  }
  const changes: MembershipChange[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const row = i + 1;
    const cells = splitCsvLine(lines[i], ',');
    if (cells.length !== header.length) {
      throw new InputError(
        'MEMBERSHIP_CSV_RAGGED',
        `${file} line ${row}: ${cells.length} fields, the header has ${header.length}; quote a field that holds a comma`,
        { context: { file, row } },
      );
    }
    const cell = (name: string) => (cells[index.get(name) ?? -1] ?? '').trim();
    const entity = cell('entity_id');
    if (!ENTITY_ID.test(entity) || hasControlChars(entity)) {
      fail(
        'MEMBERSHIP_CSV_BAD_ENTITY',
        file,
        row,
        'entity_id',
        entity,
        'is not an entity id (letters, digits and : _ . - / ^ =, as in series.parquet: ticker:AAPL, a 10-digit CIK)',
      );
    }
    const universe = cell('universe');
    if (!UNIVERSE.test(universe) || universe === LISTED_UNIVERSE) {
      fail(
        'MEMBERSHIP_CSV_BAD_UNIVERSE',
        file,
        row,
        'universe',
        universe,
        universe === LISTED_UNIVERSE
          ? `is reserved for exchange listing status (EDGAR, price files); name the index (sp500)`
          : 'is not a universe name (lower-case letters, digits, _ . -, e.g. sp500)',
      );
    }
    const action = cell('action').toLowerCase();
    if (action !== 'add' && action !== 'remove') {
      fail('MEMBERSHIP_CSV_BAD_ACTION', file, row, 'action', cell('action'), 'is not add or remove');
    }
    const effective = cell('effective_date');
    const dateProblem = isoDateProblem(effective);
    if (dateProblem !== null) {
      fail(
        'MEMBERSHIP_CSV_BAD_DATE',
        file,
        row,
        'effective_date',
        effective,
        `is not a calendar date YYYY-MM-DD (${dateProblem})`,
      );
    }
    const raw = cell('announced');
    let announced: Micros;
    if (raw.length === 10) {
      const p = isoDateProblem(raw);
      if (p !== null) {
        fail(
          'MEMBERSHIP_CSV_BAD_DATE',
          file,
          row,
          'announced',
          raw,
          `is not a calendar date YYYY-MM-DD (${p})`,
        );
      }
      // A date without a time: the end of that day in New York, so nothing counts before it could be known.
      announced = endOfDayMicros(raw);
    } else {
      const m = badInstantMessage(raw);
      if (m !== null) {
        fail(
          'MEMBERSHIP_CSV_BAD_INSTANT',
          file,
          row,
          'announced',
          raw,
          `is not a date YYYY-MM-DD or an instant with a zone (${m})`,
        );
      }
      announced = isoToMicros(raw, `${file} line ${row}, field announced`);
    }
    const note = index.has('note') ? cell('note') || null : null;
    changes.push({ entity_id: entity, universe, action, effective_date: effective, announced, note, row });
  }
  if (changes.length === 0) {
    throw new InputError(
      'MEMBERSHIP_CSV_NO_ROWS',
      `${file}: the file has a header but no changes; add one row per addition and removal, or remove the file from prices.membership`,
      { context: { file } },
    );
  }
  return changes;
}

/**
 * The membership intervals of a file's changes: per (entity, universe), in announcement order, an `add`
 * opens an interval counted from its announcement and a `remove` closes it at its announcement (an
 * announced change applies from then, whether it takes effect later or took effect earlier; the effective
 * dates are kept for reference). Each interval is one row when still open, plus a second row with its end,
 * available from the removal's announcement. An `add` of a member, a `remove` of a non-member, or two
 * changes of one entity announced at one instant are errors naming both rows.
 */
export function membershipIntervals(
  changes: readonly MembershipChange[],
  file: string,
  options: { membersBeforeFile?: boolean } = {},
): MembershipRow[] {
  const byKey = new Map<string, MembershipChange[]>();
  for (const c of changes) {
    const key = `${c.entity_id}\u0000${c.universe}`;
    const list = byKey.get(key) ?? [];
    list.push(c);
    byKey.set(key, list);
  }
  const out: MembershipRow[] = [];
  const ref = (c: MembershipChange) => `${file}:${c.row}${c.note ? ` ${c.note}` : ''}`;
  for (const list of byKey.values()) {
    list.sort((a, b) => a.announced - b.announced || a.row - b.row);
    let open: MembershipChange | null = null;
    for (const [k, c] of list.entries()) {
      const prev = k > 0 ? list[k - 1] : null;
      if (prev !== null && prev.announced === c.announced) {
        throw new InputError(
          'MEMBERSHIP_CSV_SAME_INSTANT',
          `${file} lines ${prev.row} and ${c.row}: two changes of ${c.entity_id} in ${c.universe} announced at one instant; keep one, or give each its own announcement time`,
          { context: { file, row: c.row, field: 'announced', value: c.entity_id } },
        );
      }
      if (c.action === 'add') {
        if (open !== null) {
          throw new InputError(
            'MEMBERSHIP_CSV_ALREADY_MEMBER',
            `${file} line ${c.row}: adds ${c.entity_id} to ${c.universe}, a member since line ${open.row} (no removal announced in between); remove the duplicate addition`,
            { context: { file, row: c.row, field: 'action', value: c.entity_id } },
          );
        }
        open = c;
        out.push(row(c, null, ref(c)));
      } else {
        if (open === null && options.membersBeforeFile && k === 0) {
          // A change list without its starting members (`date,add,remove`): a first change that removes
          // the entity means it was a member since before the file begins, known from the start.
          const base = {
            entity_id: c.entity_id,
            universe: c.universe,
            from: null,
            source: 'membership_csv' as const,
          };
          out.push({
            ...base,
            to: null,
            available_at: null,
            source_ref: ref(c),
            effective_from: null,
            effective_to: null,
          });
          out.push({
            ...base,
            to: c.announced,
            available_at: c.announced,
            source_ref: ref(c),
            effective_from: null,
            effective_to: c.effective_date,
          });
          continue;
        }
        if (open === null) {
          throw new InputError(
            'MEMBERSHIP_CSV_NOT_MEMBER',
            `${file} line ${c.row}: removes ${c.entity_id} from ${c.universe}, which no earlier-announced line adds; list its addition (an initial member: add it at the file's first date)`,
            { context: { file, row: c.row, field: 'action', value: c.entity_id } },
          );
        }
        out.push(row(open, c, ref(c)));
        open = null;
      }
    }
  }
  return out;
}

function row(add: MembershipChange, remove: MembershipChange | null, sourceRef: string): MembershipRow {
  return {
    entity_id: add.entity_id,
    universe: add.universe,
    from: add.announced,
    to: remove === null ? null : remove.announced,
    available_at: remove === null ? add.announced : remove.announced,
    source: 'membership_csv',
    source_ref: sourceRef,
    effective_from: add.effective_date,
    effective_to: remove === null ? null : remove.effective_date,
  };
}

/**
 * The shapes of membership file the reader detects from its header (docs/decisions/0045):
 * - `changes`: asof's own `entity_id,universe,action,effective_date,announced[,note]`;
 * - `index_changes`: `date,add,remove` (fja05680's sp500_changes_since_2019: quoted tickers, several per
 *   cell), each change at its date's 09:30 New York open; a first change that removes a ticker means a
 *   member since before the file;
 * - `ticker_spans`: `ticker,start_date,end_date` (fja05680's sp500_ticker_start_end: several spells per
 *   ticker, empty end = still a member), a member from the start date's open to the end date's open;
 * - `constituents`: a snapshot with a `Symbol` column (Wikipedia's list as scraped, either schema), every
 *   symbol a member from the snapshot date (the file name's date, or `snapshotDate`), known at that day's end.
 */
export type MembershipFileShape = 'changes' | 'index_changes' | 'ticker_spans' | 'constituents';

export interface MembershipFileOptions {
  /** Universe of the files that do not name one (default: `sp500` when the file name says sp500). */
  universe?: string;
  /** Snapshot date of a constituents file (default: the last YYYY-MM-DD in its file name). */
  snapshotDate?: string;
}

/** The shape of a membership file from its header, or null. */
export function detectMembershipShape(text: string): MembershipFileShape | null {
  const h = splitCsvLine(text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '', ',').map((x) =>
    x.trim().toLowerCase(),
  );
  if (MEMBERSHIP_CSV_COLUMNS.every((c) => h.includes(c))) return 'changes';
  if (h.length === 3 && h[0] === 'date' && h[1] === 'add' && h[2] === 'remove') return 'index_changes';
  if (h.length === 3 && h[0] === 'ticker' && h[1] === 'start_date' && h[2] === 'end_date')
    return 'ticker_spans';
  if (h[0] === 'symbol' && h.length >= 2) return 'constituents';
  return null;
}

/** A membership file read: its changes and how each data row was used. */
export interface MembershipFile {
  shape: MembershipFileShape;
  changes: MembershipChange[];
  /** Data rows (non-blank lines after the header). */
  rows: number;
  /** Rows not turned into changes, by reason (`duplicate`). */
  dropped: Record<string, number>;
  /** A first removal opens the entity's membership before the file (index_changes). */
  membersBeforeFile: boolean;
}

/** When an index change takes effect: 09:30 New York, the open of its effective date (decision 0045). */
export function indexChangeInstant(date: string): Micros {
  return zonedMicros(date, '09:30', 'America/New_York');
}

function tickerEntity(raw: string, file: string, row: number, field: string): string {
  const t = raw.trim().toUpperCase();
  const id = `ticker:${t}`;
  if (t === '' || !ENTITY_ID.test(id) || hasControlChars(t)) {
    fail(
      'MEMBERSHIP_CSV_BAD_ENTITY',
      file,
      row,
      field,
      raw,
      'is not a ticker (letters, digits and . - / ^ =)',
    );
  }
  return id;
}

function checkedDate(raw: string, file: string, row: number, field: string): string {
  const v = raw.trim();
  const p = isoDateProblem(v);
  if (p !== null)
    fail('MEMBERSHIP_CSV_BAD_DATE', file, row, field, v, `is not a calendar date YYYY-MM-DD (${p})`);
  return v;
}

/**
 * Reads a membership file of any detected shape into changes (see MembershipFileShape); `file` names it
 * in messages. Errors name the file, line and field.
 */
export function parseMembershipFile(
  text: string,
  file: string,
  options: MembershipFileOptions = {},
): MembershipFile {
  const shape = detectMembershipShape(text);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const data = lines
    .map((line, i) => ({ line, row: i + 1 }))
    .slice(1)
    .filter((l) => l.line.trim() !== '');
  if (shape === null) {
    throw new InputError(
      'MEMBERSHIP_CSV_UNKNOWN_SHAPE',
      `${file} line 1: ${JSON.stringify((lines[0] ?? '').slice(0, 80))} is no membership file header; expected ${MEMBERSHIP_CSV_COLUMNS.join(',')}[,note], date,add,remove, ticker,start_date,end_date, or a constituents list with a Symbol column`,
      { context: { file, row: 1 } },
    );
  }
  if (shape === 'changes') {
    return {
      shape,
      changes: parseMembershipCsv(text, file),
      rows: data.length,
      dropped: {},
      membersBeforeFile: false,
    };
  }
  const base = file.split(/[\\/]/).pop() ?? file;
  const universe = options.universe ?? (/sp500|s&p ?500/i.test(base) ? 'sp500' : undefined);
  if (universe === undefined || !UNIVERSE.test(universe) || universe === LISTED_UNIVERSE) {
    throw new InputError(
      'MEMBERSHIP_CSV_NO_UNIVERSE',
      `${file}: a ${shape} file does not name its index; give the universe (e.g. sp500) in the options, or put sp500 in the file name`,
      { context: { file } },
    );
  }
  if (data.length === 0) {
    throw new InputError('MEMBERSHIP_CSV_NO_ROWS', `${file}: the file has a header but no rows`, {
      context: { file },
    });
  }
  const changes: MembershipChange[] = [];
  const dropped: Record<string, number> = {};
  const change = (
    entity: string,
    action: 'add' | 'remove',
    date: string,
    row: number,
    announced = indexChangeInstant(date),
  ) =>
    changes.push({ entity_id: entity, universe, action, effective_date: date, announced, note: null, row });
  if (shape === 'index_changes') {
    for (const { line, row } of data) {
      const cells = threeCells(line, file, row);
      const date = checkedDate(cells[0], file, row, 'date');
      for (const [k, action] of [
        [1, 'add'],
        [2, 'remove'],
      ] as const) {
        for (const t of cells[k].split(','))
          if (t.trim() !== '') change(tickerEntity(t, file, row, action), action, date, row);
      }
    }
    return { shape, changes, rows: data.length, dropped, membersBeforeFile: true };
  }
  if (shape === 'ticker_spans') {
    const spells = new Map<string, { start: string; end: string | null; row: number }[]>();
    for (const { line, row } of data) {
      const cells = threeCells(line, file, row);
      const entity = tickerEntity(cells[0], file, row, 'ticker');
      const start = checkedDate(cells[1], file, row, 'start_date');
      const end = cells[2].trim() === '' ? null : checkedDate(cells[2], file, row, 'end_date');
      if (end !== null && end <= start)
        fail('MEMBERSHIP_CSV_BAD_DATE', file, row, 'end_date', end, `is not after start_date ${start}`);
      spells.set(entity, [...(spells.get(entity) ?? []), { start, end, row }]);
    }
    for (const [entity, list] of spells) {
      list.sort((a, b) => (a.start < b.start ? -1 : 1));
      for (const [k, s] of list.entries()) {
        const next = list[k + 1];
        // A spell ending the day the next begins is one membership (same instant: no gap).
        const prev = list[k - 1];
        if (!(prev && prev.end === s.start)) change(entity, 'add', s.start, s.row);
        if (s.end !== null && !(next && next.start === s.end)) change(entity, 'remove', s.end, s.row);
      }
    }
    return { shape, changes, rows: data.length, dropped, membersBeforeFile: false };
  }
  // constituents
  const header = splitCsvLine(lines[0], ',').map((h) => h.trim().toLowerCase());
  const addedAt = header.findIndex((h) => h === 'date added' || h === 'date first added');
  const snapshot =
    options.snapshotDate ?? [...base.matchAll(/(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1]).pop() ?? null;
  if (snapshot === null || isoDateProblem(snapshot) !== null) {
    throw new InputError(
      'MEMBERSHIP_SNAPSHOT_NO_DATE',
      `${file}: a constituents snapshot needs its date; put it in the file name (…_2025-11-16.csv) or give snapshotDate`,
      { context: { file } },
    );
  }
  const at = endOfDayMicros(snapshot);
  const seen = new Set<string>();
  for (const { line, row } of data) {
    const cells = splitCsvLine(line, ',');
    const entity = tickerEntity(cells[0] ?? '', file, row, 'Symbol');
    if (seen.has(entity)) {
      dropped.duplicate = (dropped.duplicate ?? 0) + 1;
      continue;
    }
    seen.add(entity);
    const added = addedAt >= 0 ? (cells[addedAt] ?? '').trim() : '';
    change(entity, 'add', isoDateProblem(added) === null ? added : snapshot, row, at);
  }
  return { shape, changes, rows: data.length, dropped, membersBeforeFile: false };
}

export interface IngestMembershipResult {
  file: string;
  shape: MembershipFileShape;
  changes: number;
  entities: number;
  universes: string[];
}

/**
 * Reads one membership file into `sink` (listed as a raw input by sha256, with its accounting entry): its
 * intervals as `membership_csv` rows. `key` names the file in the manifest and in messages (the pipeline's
 * path). The shape is detected from the header (MembershipFileShape).
 */
export function ingestMembershipCsv(
  path: string,
  sink: AtomicSink,
  key = path,
  options: MembershipFileOptions = {},
): IngestMembershipResult {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (cause) {
    throw new InputError(
      'MEMBERSHIP_CSV_UNREADABLE',
      `${key}: cannot read the membership file (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}); fix prices.membership in the pipeline`,
      { context: { file: key }, cause },
    );
  }
  const parsed = parseMembershipFile(buf.toString('utf8'), key, options);
  const rows = membershipIntervals(parsed.changes, key, { membersBeforeFile: parsed.membersBeforeFile });
  sink.addInput({
    source: MEMBERSHIP_INPUT,
    key,
    sha256: createHash('sha256').update(buf).digest('hex'),
    bytes: buf.length,
  });
  const tally = new AccountingTally('prices', key, 'row');
  let droppedRows = 0;
  for (const [reason, n] of Object.entries(parsed.dropped)) {
    tally.drop(reason, n);
    droppedRows += n;
  }
  tally.map(parsed.rows - droppedRows);
  sink.addAccounting(tally.entry());
  for (const r of rows) sink.addMembership(r);
  return {
    file: key,
    shape: parsed.shape,
    changes: parsed.changes.length,
    entities: new Set(parsed.changes.map((c) => c.entity_id)).size,
    universes: [...new Set(parsed.changes.map((c) => c.universe))].sort(),
  };
}

/** The three cells of a row of an S&P change list or span file; another count is MEMBERSHIP_CSV_RAGGED. */
function threeCells(line: string, file: string, row: number): string[] {
  const cells = splitCsvLine(line, ',');
  if (cells.length !== 3) {
    throw new InputError(
      'MEMBERSHIP_CSV_RAGGED',
      `${file} line ${row}: ${cells.length} fields, the header has 3`,
      {
        context: { file, row },
      },
    );
  }
  return cells;
}
