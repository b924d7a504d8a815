import { z } from 'zod';

/** FinVerse's six frequencies (SPEC §1). BD is the weekday grid (260 steps a year). */
export const FREQUENCIES = ['D', 'BD', 'W', 'M', 'Q', 'A'] as const;
export const Frequency = z.enum(FREQUENCIES, {
  error: (iss) => `frequency must be one of ${FREQUENCIES.join(', ')}; got ${JSON.stringify(iss.input)}`,
});
export type Frequency = z.infer<typeof Frequency>;

/** Names used in the FinVerse tables (`../shared/spec/*.tsv`). */
export const FREQUENCY_NAMES: Record<Frequency, string> = {
  D: 'Daily',
  BD: 'Business-daily',
  W: 'Weekly',
  M: 'Monthly',
  Q: 'Quarterly',
  A: 'Annual',
};
