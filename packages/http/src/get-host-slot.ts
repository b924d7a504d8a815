import PQueue from 'p-queue';
import type { Clock } from './clock.ts';
import type { HostPolicy } from './host-policy.ts';
import { SlidingWindowLimiter } from './sliding-window-limiter.ts';

export interface HostSlot {
  limiter: SlidingWindowLimiter;
  queue: PQueue;
}

/**
 * Per-clock registry so that every client in the process that talks to the same host (or bucket) with the
 * same clock shares one window: a host's limit counts the requests of the whole process (per user), not those
 * of one client object.
 */
const registry = new WeakMap<Clock, Map<string, HostSlot>>();

export function getHostSlot(clock: Clock, bucket: string, policy: HostPolicy): HostSlot {
  let byBucket = registry.get(clock);
  if (byBucket === undefined) {
    byBucket = new Map();
    registry.set(clock, byBucket);
  }
  const key = `${bucket}|${policy.maxPerInterval}/${policy.intervalMs}|${policy.marginMs ?? ''}|${policy.concurrency ?? ''}`;
  let slot = byBucket.get(key);
  if (slot === undefined) {
    slot = {
      limiter: new SlidingWindowLimiter(policy, clock),
      queue: new PQueue({ concurrency: policy.concurrency ?? policy.maxPerInterval }),
    };
    byBucket.set(key, slot);
  }
  return slot;
}
