import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { badInstantMessage, endOfDayMicros, isoDateProblem, isoToMicros } from '@asof/calendar';
import {
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
export function membershipIntervals(changes: readonly MembershipChange[], file: string): MembershipRow[] {
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

export interface IngestMembershipResult {
  file: string;
  changes: number;
  entities: number;
  universes: string[];
}

/**
 * Reads one membership file into `sink` (listed as a raw input by sha256): its intervals as
 * `membership_csv` rows. `key` names the file in the manifest and in messages (the pipeline's path).
 */
export function ingestMembershipCsv(path: string, sink: AtomicSink, key = path): IngestMembershipResult {
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
  const changes = parseMembershipCsv(buf.toString('utf8'), key);
  const rows = membershipIntervals(changes, key);
  sink.addInput({
    source: 'prices:membership',
    key,
    sha256: createHash('sha256').update(buf).digest('hex'),
    bytes: buf.length,
  });
  for (const r of rows) sink.addMembership(r);
  return {
    file: key,
    changes: changes.length,
    entities: new Set(changes.map((c) => c.entity_id)).size,
    universes: [...new Set(changes.map((c) => c.universe))].sort(),
  };
}
