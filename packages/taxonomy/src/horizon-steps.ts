import type { Frequency } from '@asof/schema';

/** FinVerse's five forecast horizons, shortest first. */
export const HORIZONS = ['1w', '1m', '1q', '1h', '1y'] as const;
export type Horizon = (typeof HORIZONS)[number];

/**
 * SPEC §1: the one place that maps a horizon to a number of steps at a frequency. The BD grid is weekdays
 * (FinVerse Table 2: 260 a year, so 1m = 22 and 1q = 65). `null` means the horizon is shorter than one
 * step of the frequency and is not defined (e.g. 1w on a monthly series).
 */
const STEPS: Record<Frequency, Record<Horizon, number | null>> = {
  BD: { '1w': 5, '1m': 22, '1q': 65, '1h': 130, '1y': 260 },
  D: { '1w': 7, '1m': 30, '1q': 91, '1h': 182, '1y': 365 },
  W: { '1w': 1, '1m': 4, '1q': 13, '1h': 26, '1y': 52 },
  M: { '1w': null, '1m': 1, '1q': 3, '1h': 6, '1y': 12 },
  Q: { '1w': null, '1m': null, '1q': 1, '1h': 2, '1y': 4 },
  A: { '1w': null, '1m': null, '1q': null, '1h': null, '1y': 1 },
};

export function isHorizon(value: string): value is Horizon {
  return (HORIZONS as readonly string[]).includes(value);
}

/** Steps of `frequency` in `horizon`, or null when the horizon is not defined at that frequency. */
export function horizonSteps(frequency: Frequency, horizon: Horizon): number | null {
  const row = STEPS[frequency];
  if (row === undefined) throw new TypeError(`horizonSteps: unknown frequency ${JSON.stringify(frequency)}`);
  const steps = row[horizon];
  if (steps === undefined) throw new TypeError(`horizonSteps: unknown horizon ${JSON.stringify(horizon)}`);
  return steps;
}
