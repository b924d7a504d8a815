/** The relative tolerance past which a float32 rounding is reported (float32 keeps 2^-24 ≈ 6e-8 relative). */
export const FLOAT32_TOLERANCE = 1e-7;

export interface Float32Example {
  where: string;
  value: number;
  /** 'Infinity'/'-Infinity' for an overflow (canonical JSON has no infinite numbers). */
  float32: number | string;
  /** null for an overflow. */
  relative: number | null;
}

/** What writing float64 values as float32 did to them. */
export interface Float32Report {
  tolerance: number;
  values: number;
  /** Values float32 does not hold exactly (any rounding at all). */
  rounded: number;
  /** The largest relative rounding of a value float32 holds (overflows are counted apart). */
  max_relative: number;
  /** Values beyond float32's range (written as ±Infinity). */
  overflow: number;
  /** Values whose relative rounding exceeds the tolerance (overflow, underflow to subnormal or zero). */
  exceeding: number;
  /** The first few of them. */
  examples: Float32Example[];
}

const EXAMPLES = 5;

export function newFloat32Report(tolerance = FLOAT32_TOLERANCE): Float32Report {
  return { tolerance, values: 0, rounded: 0, max_relative: 0, overflow: 0, exceeding: 0, examples: [] };
}

/** Counts one value written as float32 (`where` names it in examples); NaN (a gap) is not a value. */
export function noteFloat32(report: Float32Report, value: number, where: () => string): void {
  if (Number.isNaN(value)) return;
  report.values++;
  const f = Math.fround(value);
  if (f === value) return;
  report.rounded++;
  const relative = Math.abs(f - value) / Math.abs(value);
  if (!Number.isFinite(f)) report.overflow++;
  else if (relative > report.max_relative) report.max_relative = relative;
  if (relative > report.tolerance) {
    report.exceeding++;
    if (report.examples.length < EXAMPLES)
      report.examples.push(
        Number.isFinite(f)
          ? { where: where(), value, float32: f, relative }
          : { where: where(), value, float32: String(f), relative: null },
      );
  }
}
