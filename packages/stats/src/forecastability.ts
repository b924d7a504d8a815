import { periodogram } from './periodogram.ts';

let spectrumScratch = new Float64Array(0);
let centredScratch = new Float64Array(0);

/**
 * Forecastability φ = 1 − H/log M (SPEC §7; FinTSB eq. 3 follows ForeCA but writes log 2π, which is
 * the continuous-spectrum normaliser — with a discrete periodogram the entropy's maximum is log M,
 * so φ lies in [0, 1]: 0 for flat (white) spectra, 1 for a single sinusoid on a Fourier frequency).
 *
 * Precisely: I_k = |Σ_t (x_t − x̄) e^{−2πikt/n}|² for the M = ⌊n/2⌋ positive Fourier frequencies
 * k = 1 … ⌊n/2⌋. The DC term (k = 0) is excluded — it only carries the mean — and the Nyquist term
 * (k = n/2, even n) is included, like R's spec.pgram that ForeCA uses; no taper, no detrending,
 * no smoothing. p_k = I_k / Σ I, H = −Σ p_k ln p_k (0·ln 0 = 0), natural logs throughout.
 * NaN when n < 4 (M < 2) or the series is constant (Σ I = 0).
 */
export function forecastability(x: Float64Array): number {
  const n = x.length;
  const m = n >> 1;
  if (m < 2) return Number.NaN;
  if (spectrumScratch.length < m + 1) spectrumScratch = new Float64Array(m + 1);
  if (centredScratch.length !== n) centredScratch = new Float64Array(n);
  // Demeaning leaves I_k (k ≥ 1) unchanged in exact arithmetic but removes a possibly large DC bin
  // whose rounding error would otherwise leak into every other bin.
  const centred = centredScratch;
  let sum = 0;
  let min = x[0];
  let max = x[0];
  for (let i = 0; i < n; i++) {
    const v = x[i];
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!(max > min)) return Number.NaN;
  const mean = sum / n;
  for (let i = 0; i < n; i++) centred[i] = x[i] - mean;
  const spec = spectrumScratch;
  periodogram(centred, spec);
  let total = 0;
  for (let k = 1; k <= m; k++) total += spec[k];
  if (!(total > 0)) return Number.NaN;
  let h = 0;
  for (let k = 1; k <= m; k++) {
    const p = spec[k] / total;
    if (p > 0) h -= p * Math.log(p);
  }
  return 1 - h / Math.log(m);
}
