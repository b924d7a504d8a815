import { type Frequency, InputError } from '@asof/schema';
import { defaultRegistry } from './load-registry.ts';
import type { HorizonRow, Registry } from './registry-types.ts';

function horizonRow(frequency: Frequency, registry: Registry): HorizonRow {
  const row = registry.horizons.find((h) => h.frequency === frequency);
  if (row === undefined) {
    throw new InputError(
      'UNKNOWN_FREQUENCY',
      `horizons.tsv has no row for frequency ${JSON.stringify(frequency)}; it has ${registry.horizons.map((h) => h.frequency).join(', ')}`,
      { context: { frequency } },
    );
  }
  return row;
}

/** FinVerse's prediction length (steps forecast per origin) at a frequency, from horizons.tsv. */
export function predictionLength(frequency: Frequency, registry: Registry = defaultRegistry()): number {
  return horizonRow(frequency, registry).prediction_length;
}

/** FinVerse's minimum history (steps) a series needs before an origin, from horizons.tsv. */
export function minimumLookback(frequency: Frequency, registry: Registry = defaultRegistry()): number {
  return horizonRow(frequency, registry).minimum_lookback;
}
