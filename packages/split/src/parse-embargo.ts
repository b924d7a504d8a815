import { addIsoDays, isoDayNumber } from '@asof/calendar';
import { InputError } from '@asof/schema';

/** A calendar duration: months are calendar months (P1M from 2020-03-31 is 2020-02-29), days are days. */
export interface Embargo {
  years: number;
  months: number;
  days: number;
  /** The canonical text, e.g. `P0D`, `P30D`, `P1Y2M3D`. */
  text: string;
}

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$/;

/**
 * Parses `--embargo`: a whole number of days (`30`) or an ISO-8601 date duration (`P30D`, `P2W`, `P1M`,
 * `P1Y6M`). Time parts (`PT12H`) are refused: the embargo moves a date, and eval_start is a date.
 */
export function parseEmbargo(text: string | undefined): Embargo {
  const raw = (text ?? '0').trim();
  if (/^\d+$/.test(raw)) return canonical(0, 0, Number(raw));
  const m = DURATION.exec(raw.toUpperCase());
  if (!m || raw.length < 2 || raw.toUpperCase() === 'P') {
    throw new InputError(
      'EMBARGO_INVALID',
      `--embargo ${JSON.stringify(raw)} is neither a number of days nor a date duration; use e.g. 30, P30D, P2W, P1M or P1Y`,
      { context: { embargo: raw } },
    );
  }
  const [, y, mo, w, d] = m;
  return canonical(Number(y ?? 0), Number(mo ?? 0), Number(w ?? 0) * 7 + Number(d ?? 0));
}

function canonical(years: number, months: number, days: number): Embargo {
  const parts = `${years ? `${years}Y` : ''}${months ? `${months}M` : ''}${days ? `${days}D` : ''}`;
  return { years, months, days, text: `P${parts || '0D'}` };
}

/** `date − embargo` as an ISO date: months first (clamped to the month's last day), then days. */
export function subtractEmbargo(date: string, embargo: Embargo): string {
  isoDayNumber(date);
  const [y, m, d] = date.split('-').map(Number);
  const totalMonths = y * 12 + (m - 1) - embargo.years * 12 - embargo.months;
  const ny = Math.floor(totalMonths / 12);
  const nm = totalMonths - ny * 12 + 1;
  const lastDay = new Date(Date.UTC(ny, nm, 0)).getUTCDate();
  const clamped = `${String(ny).padStart(4, '0')}-${String(nm).padStart(2, '0')}-${String(Math.min(d, lastDay)).padStart(2, '0')}`;
  const cutoff = ny < 1 ? null : addIsoDays(clamped, -embargo.days);
  // An embargo longer than the calendar behind eval_start is the user's number, not a date they typed:
  // say so in their terms instead of echoing the year -271771 (audit 3.25).
  if (cutoff === null || !/^\d{4}-\d{2}-\d{2}$/.test(cutoff) || cutoff < '0001-01-01') {
    throw new InputError(
      'EMBARGO_TOO_LONG',
      `--embargo ${embargo.text}: eval_start ${date} minus the embargo falls before the year 1, so no training data could precede it; use an embargo of days to a few years, e.g. 30, P30D or P1Y`,
      { context: { field: 'embargo', value: embargo.text, eval_start: date } },
    );
  }
  return cutoff;
}
