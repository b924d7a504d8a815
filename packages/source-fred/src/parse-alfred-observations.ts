import { InputError } from '@asof/schema';
import type { FredObservation, FredObservationsResponse } from './fred-payload.ts';
import { parseFredValue } from './parse-fred-value.ts';

/**
 * One vintage: `value` became the value of `date` on `realtime_start` (and differs from the one before).
 * `value: null` is a withdrawal: a vintage said "." after a value had been published (see AlfredWithdrawal).
 */
export interface AlfredVintageRow {
  date: string;
  realtime_start: string;
  value: number | null;
}

/** A vintage in which a previously published value became missing ("."). */
export interface AlfredWithdrawal {
  date: string;
  realtime_start: string;
  /** realtime_start of the vintage that published a value again, if any. */
  restored?: string;
}

export interface ParsedAlfredObservations {
  /**
   * Rows sorted by (date, realtime_start); a row only where the value changed. A withdrawal is a row with
   * value null, and the value published again after it (even the same number) is a new row.
   */
  rows: AlfredVintageRow[];
  /**
   * Vintages that withdrew a value (e.g. BEA dropping 1946 GDP in the 1999 comprehensive revision); each is
   * also a null row in `rows` (a withdrawal row downstream, docs/decisions/0007-withdrawal-rows.md).
   */
  withdrawals: AlfredWithdrawal[];
  /** Observation rows whose value was "." or empty (missing before any value, or withdrawn). */
  missing: number;
  /** Rows dropped because they re-published the previous value (incl. realtime-window chunk seams). */
  unchanged: number;
}

/** A response whose realtime window is a single day is a snapshot of one vintage, not a vintage history. */
export function isSnapshotResponse(
  response: Pick<FredObservationsResponse, 'realtime_start' | 'realtime_end'>,
) {
  return response.realtime_start === response.realtime_end;
}

/**
 * ALFRED observations (one or more responses of the same series, e.g. all-vintages plus the output_type=4
 * first releases) → vintage rows, one per (date, realtime_start) where the value changed. Rows present
 * in several responses must agree; two different values for the same (date, realtime_start) are an error.
 */
export function parseAlfredObservations(
  observations: readonly FredObservation[] | readonly (readonly FredObservation[])[],
  where: string,
): ParsedAlfredObservations {
  const flat: FredObservation[] = (
    observations.length > 0 && Array.isArray(observations[0])
      ? (observations as FredObservation[][]).flat()
      : (observations as FredObservation[])
  ) as FredObservation[];
  const byDate = new Map<string, FredObservation[]>();
  for (const o of flat) {
    let list = byDate.get(o.date);
    if (list === undefined) {
      list = [];
      byDate.set(o.date, list);
    }
    list.push(o);
  }
  const rows: AlfredVintageRow[] = [];
  const withdrawals: AlfredWithdrawal[] = [];
  let missing = 0;
  let unchanged = 0;
  for (const date of [...byDate.keys()].sort()) {
    const list = byDate.get(date)!;
    list.sort((a, b) =>
      a.realtime_start < b.realtime_start ? -1 : a.realtime_start > b.realtime_start ? 1 : 0,
    );
    // undefined: nothing published yet ("." is then merely missing); null: the published value is withdrawn.
    let last: number | null | undefined;
    let prev: FredObservation | undefined;
    for (const o of list) {
      if (prev !== undefined && prev.realtime_start === o.realtime_start) {
        if (prev.value.trim() !== o.value.trim()) {
          throw new InputError(
            'FRED_CONFLICTING_VINTAGES',
            `${where}: date ${date} has two values for realtime_start ${o.realtime_start} ` +
              `(${JSON.stringify(prev.value)} and ${JSON.stringify(o.value)}); the responses are of different ` +
              'series or units, keep one',
            { context: { where, date, realtime_start: o.realtime_start } },
          );
        }
        continue;
      }
      prev = o;
      const value = parseFredValue(o.value, `${where}: date ${date}, realtime_start ${o.realtime_start}`);
      if (value === null) {
        missing++;
        if (last !== undefined && last !== null) {
          withdrawals.push({ date, realtime_start: o.realtime_start });
          rows.push({ date, realtime_start: o.realtime_start, value: null });
          last = null;
        }
        continue;
      }
      if (last === null) withdrawals[withdrawals.length - 1].restored = o.realtime_start;
      else if (value === last) {
        unchanged++;
        continue;
      }
      rows.push({ date, realtime_start: o.realtime_start, value });
      last = value;
    }
  }
  return { rows, withdrawals, missing, unchanged };
}
