/** Time source for rate limiting, pauses and backoff. Tests inject a fake one so a 10-minute pause is instant. */
export interface Clock {
  /** Milliseconds, monotone non-decreasing. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};
