export interface BackoffSettings {
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Uniform [0,1) source for the jitter. */
  random: () => number;
}

/**
 * Full-jitter backoff before retry `retry` (1-based): random() * min(max, base * 2^(retry-1)), never less
 * than `minDelayMs` (a server's Retry-After).
 */
export function computeBackoffDelay(retry: number, settings: BackoffSettings, minDelayMs?: number): number {
  const ceiling = Math.min(settings.backoffMaxMs, settings.backoffBaseMs * 2 ** (retry - 1));
  return Math.max(minDelayMs ?? 0, Math.floor(settings.random() * ceiling));
}
