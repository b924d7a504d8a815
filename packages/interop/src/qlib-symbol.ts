/**
 * Windows device names: Qlib's code_to_fname (qlib/utils/__init__.py) prefixes a symbol that is one of
 * them (compared upper-cased) with `_qlib_` so its folder can exist on Windows; fname_to_code strips it.
 */
const WINDOWS_RESERVED = new Set([
  'CON',
  'PRN',
  'AUX',
  'NUL',
  ...Array.from({ length: 10 }, (_, i) => `COM${i}`),
  ...Array.from({ length: 10 }, (_, i) => `LPT${i}`),
]);

/** The prefix Qlib's code_to_fname puts before a Windows device name. */
export const QLIB_RESERVED_PREFIX = '_qlib_';

/**
 * A symbol as Qlib's dump_bin stores it in a feature folder name: lower-cased, and a Windows device name
 * (CON, PRN, AUX, NUL, COM0–9, LPT0–9) prefixed with `_qlib_` (code_to_fname).
 */
export function qlibSymbol(code: string): string {
  const lower = code.toLowerCase();
  return WINDOWS_RESERVED.has(lower.toUpperCase()) ? `${QLIB_RESERVED_PREFIX}${lower}` : lower;
}
