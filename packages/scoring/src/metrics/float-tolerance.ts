/**
 * Relative tolerance under which two values, or a spread and its values, are taken to differ only by
 * floating-point rounding (summation order, ln/division of nearby prices: ~1e-16 to 1e-13 relative). The
 * scorer's metrics are means of ratios and returns; a genuine difference below 1e-9 of their size carries
 * no information, while a rounding difference treated as real decides ranks, correlations and DM tests
 * (issue 18.7: a constant cross-section gave an IC of 7e-18, two equal means ranked 5/6, a model equal to
 * the random walk got a DM statistic of 1.03).
 */
export const RELATIVE_TOLERANCE = 1e-9;

/** a and b equal up to RELATIVE_TOLERANCE of the larger magnitude (exactly equal when both are 0). */
export function nearlyEqual(a: number, b: number, tolerance = RELATIVE_TOLERANCE): boolean {
  return a === b || Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * A sum of squared deviations Σ(x − x̄)² over n values that is rounding noise: the values' spread is at most
 * RELATIVE_TOLERANCE of their largest magnitude (√(Σ/n) ≤ tol·max|x|). Such values are constant.
 */
export function negligibleSpread(sumSquares: number, n: number, maxAbs: number): boolean {
  return !(sumSquares > n * (RELATIVE_TOLERANCE * maxAbs) ** 2);
}

/**
 * A forecast return — ln(ŷ/y_o), or (ŷ − y_o)/|y_o| in scaled change — within this of zero is no change:
 * ŷ equals y_o up to RELATIVE_TOLERANCE, the rounding rule above. An ARIMA(0,1,0) forecast computed as
 * exp(ln y_o) lands an ulp or two off y_o (a return of ±2e-16, audit scoring-2026-12 mismatch 1), and a
 * spread test relative to the values' own size cannot see that: when every value is noise, the noise is the
 * size. So the Tycheon scorer takes such a return as exactly 0 (`noChangeReturn`): a forecast that is no
 * change everywhere is constant (IC and RankIC n/a), calls no direction (directional accuracy n/a) and
 * takes no position in the cost diagnostic. docs/decisions/0055.
 */
export const NO_CHANGE_TOLERANCE = RELATIVE_TOLERANCE;

/** A forecast return, or exactly 0 when it is within NO_CHANGE_TOLERANCE of 0 (NaN stays NaN). */
export function noChangeReturn(r: number): number {
  return Math.abs(r) <= NO_CHANGE_TOLERANCE ? 0 : r;
}
