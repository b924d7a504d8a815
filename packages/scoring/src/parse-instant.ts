import { InputError } from '@asof/schema';

/**
 * An origin as epoch milliseconds, the key origins are matched on. Accepts ISO instants and dates
 * (a bare date is 00:00 UTC). Sub-millisecond digits are dropped: origins are at least a day apart.
 */
export function parseInstant(text: string, where: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) {
    throw new InputError(
      'SCORE_BAD_ORIGIN',
      `${where}: origin ${JSON.stringify(text)} is not an ISO date or instant; write e.g. 2024-01-31T00:00:00Z`,
      { context: { where, value: text } },
    );
  }
  return ms;
}
