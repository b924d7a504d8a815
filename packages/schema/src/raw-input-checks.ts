/**
 * The largest magnitude a value read from a raw file may have (docs/decisions/0012-source-input-checks.md).
 * No real quantity asof ingests comes near it: the biggest are USD balance-sheet totals (≈ 4e12, the
 * largest banks' total assets), FRED's US aggregates in their published units (< 1e8: dollar aggregates
 * are given in millions or billions), split-adjusted share volumes (< 1e12) and share counts (< 1e11). It is
 * also the last power of ten below 2^53 ≈ 9.007e15, past which a double no longer holds every integer, so
 * a value beyond it could not be stored as given anyway. A value at or past it is a corrupt or misparsed
 * cell (1e300, digits of two cells run together), refused at ingest with the file and row.
 */
export const MAX_ABS_VALUE = 1e15;

/** Why `value` cannot be an observation value (not finite, or |value| ≥ MAX_ABS_VALUE), or null. */
export function implausibleValueProblem(value: number): string | null {
  if (!Number.isFinite(value)) return `${String(value)} is not a finite number`;
  if (Math.abs(value) >= MAX_ABS_VALUE) {
    return `${value} is beyond ±1e15, larger than any real quantity asof ingests (a corrupt or misparsed cell?)`;
  }
  return null;
}

// C0 and C1 controls, DEL, and the invisible format characters that reorder or hide text in a terminal.
const CONTROL = /[\p{Cc}\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
const CONTROL_ALL = /[\p{Cc}\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

/** True when `text` holds a control or invisible formatting character (never valid in an id or symbol). */
export function hasControlChars(text: string): boolean {
  return CONTROL.test(text);
}

/** `text` quoted for a message, every control or invisible character written as \uXXXX. */
export function printable(text: string): string {
  return `"${text
    .replace(/["\\]/g, (c) => `\\${c}`)
    .replace(CONTROL_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}
