import type { Clock } from './clock.ts';

export interface SlidingWindowOptions {
  maxPerInterval: number;
  intervalMs: number;
  /**
   * Extra spacing added to the window (default 0: the release rule already covers network latency).
   */
  marginMs?: number;
}

/** Thrown by `acquire` when the limiter is paused and the caller asked not to wait. */
export class LimiterPausedError extends Error {
  constructor(
    readonly pausedUntil: number,
    readonly reason: string,
  ) {
    super(`paused until ${new Date(pausedUntil).toISOString()}: ${reason}`);
  }
}

/**
 * Grants request starts so that no window of `intervalMs` (any start time, not only aligned ones) ever holds
 * more than `maxPerInterval` starts *as the server sees them*.
 *
 * The client cannot know when the server received a request, only that it was after the grant and before the
 * response headers (or the failure) came back. So every grant is released when its attempt ends, and the k-th
 * grant waits until intervalMs (+ margin) after the latest release among grants 1..k-N. Then for any N+1
 * requests the server saw, the last one arrived more than intervalMs after the first: the guarantee holds
 * whatever the network latency, at the price of a sustained rate of N / (intervalMs + latency to headers).
 * (A window counted from the client's send times is broken by latency jitter: a slow first burst arrives
 * together with the next one.)
 *
 * p-queue's `interval`/`intervalCap` alone is a fixed window (2N starts can straddle a boundary), and its
 * `strict` mode counts task starts on the real clock, which the host pause and the tests must be able to
 * replace; so the window is kept here on the injectable clock, and p-queue only caps concurrency.
 *
 * Grants are FIFO (a promise chain), so a burst of callers is spread evenly instead of racing.
 */
export class SlidingWindowLimiter {
  /** Grants not yet retired, oldest first; `releasedAt` undefined while the attempt is in flight. */
  private readonly grants: {
    releasedAt: number | undefined;
    released: Promise<void>;
    release: () => void;
  }[] = [];
  /** Latest release time among retired grants. */
  private retiredMax = Number.NEGATIVE_INFINITY;
  private chain: Promise<unknown> = Promise.resolve();
  private pausedUntil = 0;
  private pauseReason = '';
  private readonly windowMs: number;
  readonly maxPerInterval: number;

  constructor(
    options: SlidingWindowOptions,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(options.maxPerInterval) || options.maxPerInterval < 1) {
      throw new RangeError(`maxPerInterval must be a positive integer, got ${options.maxPerInterval}`);
    }
    if (!(options.intervalMs > 0)) throw new RangeError(`intervalMs must be > 0, got ${options.intervalMs}`);
    this.maxPerInterval = options.maxPerInterval;
    this.windowMs = options.intervalMs + (options.marginMs ?? 0);
  }

  /** Stop granting starts until `until` (ms on the limiter's clock). Extends, never shortens, a pause. */
  pause(until: number, reason: string): void {
    if (until > this.pausedUntil) {
      this.pausedUntil = until;
      this.pauseReason = reason;
    }
  }

  /** The end of the current pause, or undefined when not paused. */
  pausedUntilMs(): number | undefined {
    return this.clock.now() < this.pausedUntil ? this.pausedUntil : undefined;
  }

  /**
   * Resolves when a start is granted, with the function to call once the attempt has ended (response headers,
   * error or timeout). With `noWait`, rejects instead of waiting out a pause.
   */
  acquire(options: { noWait?: boolean } = {}): Promise<() => void> {
    const granted = this.chain.then(() => this.waitForSlot(options.noWait === true));
    this.chain = granted.catch(() => undefined);
    return granted;
  }

  private async waitForSlot(noWait: boolean): Promise<() => void> {
    for (;;) {
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        if (noWait) throw new LimiterPausedError(this.pausedUntil, this.pauseReason);
        await this.clock.sleep(this.pausedUntil - now);
        continue;
      }
      const mustBeReleased = this.grants.length - this.maxPerInterval + 1;
      let bound = this.retiredMax;
      let pending: Promise<void> | undefined;
      for (let i = 0; i < mustBeReleased; i++) {
        const at = this.grants[i].releasedAt;
        if (at === undefined) {
          pending = this.grants[i].released;
          break;
        }
        bound = Math.max(bound, at);
      }
      if (pending !== undefined) {
        await pending;
        continue;
      }
      if (now < bound + this.windowMs) {
        // Timers may fire a little early; the loop re-checks the clock before granting.
        await this.clock.sleep(bound + this.windowMs - now);
        continue;
      }
      return this.record();
    }
  }

  private record(): () => void {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const grant = { releasedAt: undefined as number | undefined, released, release: () => {} };
    grant.release = () => {
      if (grant.releasedAt !== undefined) return;
      grant.releasedAt = this.clock.now();
      release();
      this.retire();
    };
    this.grants.push(grant);
    this.retire();
    return grant.release;
  }

  /** Fold released grants beyond the last N into retiredMax, keeping the list short. */
  private retire(): void {
    while (this.grants.length > this.maxPerInterval && this.grants[0].releasedAt !== undefined) {
      this.retiredMax = Math.max(this.retiredMax, this.grants[0].releasedAt);
      this.grants.shift();
    }
  }
}
