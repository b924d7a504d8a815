import { InputError, implausibleValueProblem } from '@asof/schema';

const NUMBER_RE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A FRED value as text → number, or null when missing. FRED writes missing as "." (API, legacy CSV) or an
 * empty cell (current fredgraph CSV); both are missing, never 0. Anything else non-numeric is an error.
 */
export function parseFredValue(text: string, where: string): number | null {
  const t = text.trim();
  if (t === '' || t === '.' || t === '#N/A' || t === 'NA') return null;
  if (!NUMBER_RE.test(t)) {
    throw new InputError(
      'FRED_BAD_VALUE',
      `${where}: value ${JSON.stringify(text)} is not a number or "." (missing); thousands separators and ` +
        'footnote marks are not FRED output, re-download the file unedited',
      { context: { where, value: text } },
    );
  }
  const v = Number(t);
  const problem = implausibleValueProblem(v);
  if (problem !== null) {
    throw new InputError(
      'FRED_BAD_VALUE',
      `${where}: value ${JSON.stringify(text)}: ${problem}; re-download the file`,
      {
        context: { where, value: text },
      },
    );
  }
  return v;
}
