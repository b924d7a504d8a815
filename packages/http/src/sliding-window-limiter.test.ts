import { describe, expect, it } from 'vitest';
import { LimiterPausedError, SlidingWindowLimiter } from './sliding-window-limiter.ts';
import { createFakeClock, maxInAnyWindow } from './start-test-server.ts';

describe('SlidingWindowLimiter', () => {
  it('never grants more than N starts in any window, for bursty arrivals at arbitrary times', async () => {
    const clock = createFakeClock(0);
    const limiter = new SlidingWindowLimiter({ maxPerInterval: 10, intervalMs: 1000, marginMs: 0 }, clock);
    const granted: number[] = [];
    // Arrivals in irregular bursts: the callers are ready long before their grants.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let burst = 0; burst < 20; burst++) {
      const size = 1 + Math.floor(rand() * 25);
      await Promise.all(
        Array.from({ length: size }, () =>
          limiter.acquire().then((release) => {
            granted.push(clock.now());
            release();
          }),
        ),
      );
      await clock.sleep(Math.floor(rand() * 1500));
    }
    expect(granted.length).toBeGreaterThan(100);
    expect(maxInAnyWindow(granted, 1000)).toBe(10);
    // Tight: N starts in a row are allowed back to back.
    expect(granted.slice(0, 10).every((t) => t === granted[0])).toBe(true);
  });

  it('adds the margin to the window', async () => {
    const clock = createFakeClock(0);
    const limiter = new SlidingWindowLimiter({ maxPerInterval: 2, intervalMs: 100, marginMs: 10 }, clock);
    const granted: number[] = [];
    for (let i = 0; i < 6; i++) {
      const release = await limiter.acquire();
      granted.push(clock.now());
      release();
    }
    expect(granted).toEqual([0, 0, 110, 110, 220, 220]);
  });

  it('holds every start until a pause ends, or rejects at once with noWait', async () => {
    const clock = createFakeClock(0);
    const limiter = new SlidingWindowLimiter({ maxPerInterval: 5, intervalMs: 100 }, clock);
    limiter.pause(600_000, 'HTTP 429');
    await expect(limiter.acquire({ noWait: true })).rejects.toBeInstanceOf(LimiterPausedError);
    (await limiter.acquire())();
    expect(clock.now()).toBeGreaterThanOrEqual(600_000);
    expect(limiter.pausedUntilMs()).toBeUndefined();
  });

  it('counts the window from the release of earlier grants, so slow requests delay later ones', async () => {
    const clock = createFakeClock(0);
    const limiter = new SlidingWindowLimiter({ maxPerInterval: 2, intervalMs: 100 }, clock);
    const r1 = await limiter.acquire();
    const r2 = await limiter.acquire();
    let thirdAt: number | undefined;
    const third = limiter.acquire().then((release) => {
      thirdAt = clock.now();
      release();
    });
    await clock.sleep(50);
    expect(thirdAt).toBeUndefined(); // grant 1 still in flight
    r1(); // released at t=50
    await clock.sleep(0);
    r2();
    await third;
    expect(thirdAt).toBe(150);
  });

  it('rejects nonsense limits', () => {
    const clock = createFakeClock(0);
    expect(() => new SlidingWindowLimiter({ maxPerInterval: 0, intervalMs: 100 }, clock)).toThrow(RangeError);
    expect(() => new SlidingWindowLimiter({ maxPerInterval: 1, intervalMs: 0 }, clock)).toThrow(RangeError);
  });
});
