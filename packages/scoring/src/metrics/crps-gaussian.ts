import { InputError } from '@asof/schema';
import { normalCdf, normalPdf } from '@asof/stats';

/**
 * Closed-form CRPS of N(μ, σ²) at y (Gneiting & Raftery 2007):
 *   σ [ z(2Φ(z) − 1) + 2φ(z) − 1/√π ],  z = (y − μ)/σ.
 * Used as the independent check of `crpsSamples` and `crpsQuantiles`; also exact for Gaussian forecasters.
 */
export function crpsGaussian(mu: number, sigma: number, outcome: number): number {
  if (!(sigma > 0) || !Number.isFinite(sigma) || !Number.isFinite(mu) || !Number.isFinite(outcome)) {
    throw new InputError(
      'METRIC_BAD_PARAMETER',
      `crpsGaussian: need finite mu, outcome and sigma > 0, got mu=${mu}, sigma=${sigma}, outcome=${outcome}.`,
      { context: { mu, sigma, outcome } },
    );
  }
  const z = (outcome - mu) / sigma;
  return sigma * (z * (2 * normalCdf(z) - 1) + 2 * normalPdf(z) - 1 / Math.sqrt(Math.PI));
}
