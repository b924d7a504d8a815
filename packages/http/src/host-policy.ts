export interface HostPolicy {
  /** At most this many request starts in any window of `intervalMs` (sliding, not aligned). */
  maxPerInterval: number;
  intervalMs: number;
  /** Requests in flight at once for this host. Default: maxPerInterval. */
  concurrency?: number;
  /**
   * Pause of the whole host after a 429 or a response `classifyResponse` calls rate-limited. Default 10
   * minutes.
   */
  rateLimitPauseMs?: number;
  /**
   * Hosts with the same bucket share one window and one pause (a service may count requests to several of
   * its hostnames together). Default: the hostname.
   */
  bucket?: string;
  /** Extra spacing added to the window (default 0; the window already runs from response headers, see SlidingWindowLimiter). */
  marginMs?: number;
}

export const DEFAULT_POLICY: HostPolicy = { maxPerInterval: 5, intervalMs: 1000, concurrency: 5 };
export const DEFAULT_PAUSE_MS = 10 * 60 * 1000;
