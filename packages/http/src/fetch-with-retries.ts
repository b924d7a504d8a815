import { type AttemptSettings, attemptRequest } from './attempt-request.ts';
import type { Attempt } from './classify-status.ts';
import type { Clock } from './clock.ts';
import { type BackoffSettings, computeBackoffDelay } from './compute-backoff-delay.ts';
import { createRateLimitedError } from './create-rate-limited-error.ts';
import { createRetriesExhaustedError, type LastFailure } from './create-retries-exhausted-error.ts';
import { describeError } from './describe-error.ts';
import { getHostSlot, type HostSlot } from './get-host-slot.ts';
import { DEFAULT_PAUSE_MS, type HostPolicy } from './host-policy.ts';
import type { HttpStats } from './http-client.ts';
import { HttpError } from './http-error.ts';
import { LimiterPausedError } from './sliding-window-limiter.ts';

/** What the retry loop needs of its client: settings, the shared stats, and the scrubbed log. */
export interface RetryContext {
  clock: Clock;
  maxAttempts: number;
  noWait: boolean;
  stats: HttpStats;
  scrub: (text: string) => string;
  log: (line: string) => void;
  policyFor: (hostname: string) => HostPolicy;
  backoff: BackoffSettings;
  attempt: AttemptSettings;
  unreachableHint: string | undefined;
}

export interface FreshRequest {
  url: string;
  /** The URL without secret params: the one logs and errors name. */
  stripped: string;
  hostname: string;
  headers: Record<string, string>;
  /** Throws when a 2xx body is unusable (getJson: not JSON), which makes the attempt a retry. */
  validate: ((text: string) => void) | undefined;
}

export interface FreshResponse {
  status: number;
  body: Buffer;
  text: string;
  contentType: string | null;
}

/** Waits for the host's window and concurrency, then makes attempt number `attempt`. */
function startAttempt(ctx: RetryContext, slot: HostSlot, request: FreshRequest, attempt: number) {
  return slot.queue.add(async (): Promise<Attempt> => {
    let release: () => void;
    try {
      release = await slot.limiter.acquire({ noWait: ctx.noWait });
    } catch (error) {
      if (error instanceof LimiterPausedError) {
        // An earlier response already paused this host: fail fast, saying how long the pause still runs.
        const remaining = error.pausedUntil - ctx.clock.now();
        throw createRateLimitedError(
          {
            stripped: request.stripped,
            hostname: request.hostname,
            reason: error.reason,
            attempts: attempt - 1,
            status: undefined,
            waitMs: remaining,
          },
          ctx.scrub,
        );
      }
      throw error;
    }
    ctx.stats.requests++;
    ctx.stats.byHost[request.hostname] = (ctx.stats.byHost[request.hostname] ?? 0) + 1;
    return attemptRequest(request.url, request.stripped, request.headers, release, ctx.attempt);
  });
}

async function waitBeforeRetry(
  ctx: RetryContext,
  attempt: number,
  stripped: string,
  reason: string,
  minDelayMs?: number,
): Promise<void> {
  ctx.stats.retries++;
  const delay = computeBackoffDelay(attempt, ctx.backoff, minDelayMs);
  ctx.log(`retry ${attempt}/${ctx.maxAttempts - 1} GET ${stripped} after ${reason}; waiting ${delay} ms`);
  await ctx.clock.sleep(delay);
}

/**
 * GET over the network with bounded retries: transient failures back off and retry, a rate-limit response
 * pauses the whole host (bucket) before the next attempt, and a fatal one throws at once.
 */
export async function fetchWithRetries(ctx: RetryContext, request: FreshRequest): Promise<FreshResponse> {
  const { stripped, hostname, validate } = request;
  const { maxAttempts } = ctx;
  const policy = ctx.policyFor(hostname);
  const slot = getHostSlot(ctx.clock, policy.bucket ?? hostname, policy);
  const pauseMs = policy.rateLimitPauseMs ?? DEFAULT_PAUSE_MS;
  let last: LastFailure = { reason: 'no attempt' };

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const outcome = await startAttempt(ctx, slot, request, attempt);

    if (outcome.kind === 'ok') {
      const text = outcome.body.toString('utf8');
      if (validate !== undefined) {
        try {
          validate(text);
        } catch (error) {
          last = { status: outcome.status, reason: `malformed body (${describeError(error)})`, cause: error };
          if (attempt < maxAttempts) await waitBeforeRetry(ctx, attempt, stripped, last.reason);
          continue;
        }
      }
      return { status: outcome.status, body: outcome.body, text, contentType: outcome.contentType };
    }
    if (outcome.kind === 'fatal') {
      throw new HttpError(outcome.code, ctx.scrub(`GET ${stripped} failed: ${outcome.reason}`), {
        url: stripped,
        attempts: attempt,
        status: outcome.status === 0 ? undefined : outcome.status,
        exitCode: outcome.code === 'HTTP_INVALID_REQUEST' ? 2 : undefined,
      });
    }
    if (outcome.kind === 'rate-limited') {
      const waitMs = Math.max(pauseMs, outcome.retryAfterMs ?? 0);
      // Pause the host even with noWait, so other requests in this run stop too.
      slot.limiter.pause(ctx.clock.now() + waitMs, outcome.reason);
      if (ctx.noWait) {
        throw createRateLimitedError(
          { stripped, hostname, reason: outcome.reason, attempts: attempt, status: outcome.status, waitMs },
          ctx.scrub,
        );
      }
      last = { status: outcome.status, reason: outcome.reason, rateLimited: true };
      if (attempt < maxAttempts) {
        ctx.stats.retries++;
        ctx.log(
          `rate limited by ${hostname} (${outcome.reason}) on GET ${stripped}; pausing all requests to ` +
            `${hostname} for ${Math.round(waitMs / 1000)} s (attempt ${attempt}/${maxAttempts})`,
        );
      }
      continue;
    }
    last = {
      status: outcome.status,
      reason: outcome.reason,
      cause: outcome.cause,
      unreachable: outcome.unreachable,
    };
    if (attempt < maxAttempts)
      await waitBeforeRetry(ctx, attempt, stripped, outcome.reason, outcome.minDelayMs);
  }

  throw createRetriesExhaustedError(
    last,
    { stripped, hostname, maxAttempts, pauseMs, unreachableHint: ctx.unreachableHint },
    ctx.scrub,
  );
}
