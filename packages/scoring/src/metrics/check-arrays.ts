import { InputError } from '@asof/schema';

/** Plain arrays and typed arrays are both accepted; metric functions only index and read `.length`. */
export type NumericArray = ArrayLike<number>;

/**
 * Throws an InputError unless every named array has the same length and only finite values.
 * Metrics reject NaN/Inf instead of skipping them: a silently dropped origin changes |O| and with it
 * every average, so the caller must decide which origins are valid before calling.
 */
export function checkArrays(metric: string, arrays: Record<string, NumericArray>): number {
  const n = checkLengths(metric, arrays);
  assertFinite(metric, arrays);
  return n;
}

/** Throws an InputError unless every named array has the same length; returns that length. */
export function checkLengths(metric: string, arrays: Record<string, NumericArray>): number {
  let expected = -1;
  let firstName = '';
  for (const name in arrays) {
    const length = arrays[name].length;
    if (expected === -1) {
      expected = length;
      firstName = name;
    } else if (length !== expected) {
      throw new InputError(
        'METRIC_LENGTH_MISMATCH',
        `${metric}: '${name}' has ${length} values but '${firstName}' has ${expected}; ` +
          'pass arrays aligned on the same origins (one entry per origin).',
        { context: { metric, argument: name, actual: length, expected } },
      );
    }
  }
  return Math.max(0, expected);
}

/**
 * Throws an InputError naming the first non-finite value. Hot loops call it only after their own cheap
 * guard (Σ x·0, which is NaN as soon as one x is NaN or ±Infinity) has tripped, so clean inputs are read once.
 */
export function assertFinite(metric: string, arrays: Record<string, NumericArray>): void {
  for (const name in arrays) {
    const values = arrays[name];
    for (let i = 0; i < values.length; i++) {
      if (!Number.isFinite(values[i])) {
        throw new InputError(
          'METRIC_NON_FINITE',
          `${metric}: '${name}'[${i}] is ${values[i]}, expected a finite number; ` +
            'drop that origin (or fix the forecast/target) before scoring.',
          { context: { metric, argument: name, index: i, value: values[i] } },
        );
      }
    }
  }
}

/** Three-valued sign (−1, 0, +1) without branches: Math.sign is ~6× slower on unpredictable signs. */
export function sign3(x: number): number {
  return +(x > 0) - +(x < 0);
}

/** Throws an InputError unless `value` is an integer ≥ `min`. */
export function checkInteger(metric: string, name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new InputError(
      'METRIC_BAD_PARAMETER',
      `${metric}: ${name} is ${value}, expected an integer ≥ ${min}.`,
      { context: { metric, argument: name, value, min } },
    );
  }
}

/** Throws an InputError when exactly one of two paired optional arguments is given. */
export function requireBothOrNeither(metric: string, names: [string, string], a: unknown, b: unknown): void {
  if ((a === undefined) !== (b === undefined)) {
    throw new InputError(
      'METRIC_BAD_PARAMETER',
      `${metric}: pass both ${names[0]} and ${names[1]} or neither (got only ${a === undefined ? names[1] : names[0]}).`,
      { context: { metric } },
    );
  }
}
