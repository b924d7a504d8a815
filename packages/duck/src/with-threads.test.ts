import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Duck } from './open-duck.ts';
import { threadsOf, withThreads } from './with-threads.ts';

// A database per test: one slow query on a loaded machine cannot spill into the next test (issue 50).
let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open({ threads: 3 });
});
afterEach(() => duck.close());

describe('withThreads', () => {
  it('runs the work at the count it derives from the current one, seen by every connection, and sets it back', async () => {
    const sibling = await duck.connect();
    try {
      const seen = await withThreads(
        duck,
        (n) => n - 1,
        async () => [await threadsOf(duck), await threadsOf(sibling)],
      );
      expect(seen).toEqual([2, 2]);
      expect(await threadsOf(sibling)).toBe(3);
    } finally {
      sibling.close();
    }
  });

  it('never goes below one thread, and sets the count back when the work fails', async () => {
    const boom = new Error('work failed');
    let inside = 0;
    await expect(
      withThreads(
        duck,
        (n) => n - 5,
        async () => {
          inside = await threadsOf(duck);
          throw boom;
        },
      ),
    ).rejects.toBe(boom);
    expect(inside).toBe(1);
    expect(await threadsOf(duck)).toBe(3);
  });
});
