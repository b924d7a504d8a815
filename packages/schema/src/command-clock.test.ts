import { afterEach, describe, expect, it } from 'vitest';
import { commandSeconds, elapsedStamp, startCommandClock } from './command-clock.ts';

describe('command clock', () => {
  afterEach(() => startCommandClock(0));

  it('counts from the process start until a command starts it', () => {
    startCommandClock(0);
    // This test file has run for a while already: the process started before it was loaded.
    expect(commandSeconds()).toBeCloseTo(performance.now() / 1000, 2);
    expect(commandSeconds()).toBeGreaterThan(0);
  });

  it('counts from the instant given, and stamps progress lines with one decimal', () => {
    startCommandClock(performance.now() - 12_340);
    expect(commandSeconds()).toBeGreaterThanOrEqual(12.34);
    expect(commandSeconds()).toBeLessThan(13);
    expect(elapsedStamp()).toMatch(/^\[12\.[3-9]s\]$/);
    startCommandClock();
    expect(elapsedStamp()).toBe('[0.0s]');
  });
});
