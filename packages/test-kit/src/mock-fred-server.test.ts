import { addIsoDays, isoWeekday } from '@asof/calendar';
import { describe, expect, it } from 'vitest';
import { createVirtualClock, manyVintageSeries, maxInWindow } from './mock-fred-server.ts';

describe('mock FRED helpers', () => {
  it('manyVintageSeries: n weekday vintages from 2000-01-03, each date’s realtime intervals back to back', () => {
    const s = manyVintageSeries('M', 30);
    const starts = [...new Set(s.rows.map((r) => r.realtime_start))].sort();
    expect(starts).toHaveLength(30);
    expect(starts[0]).toBe('2000-01-03');
    expect(starts.every((d) => isoWeekday(d) !== 0 && isoWeekday(d) !== 6)).toBe(true);
    // The first vintage releases the value of the Friday before it.
    expect(s.rows[0]).toMatchObject({ date: '1999-12-31', realtime_start: '2000-01-03' });
    const byDate = new Map<string, typeof s.rows>();
    for (const r of s.rows) byDate.set(r.date, [...(byDate.get(r.date) ?? []), r]);
    for (const rows of byDate.values()) {
      expect(rows.at(-1)?.realtime_end).toBe('9999-12-31');
      for (let i = 0; i + 1 < rows.length; i++)
        expect(rows[i].realtime_end).toBe(addIsoDays(rows[i + 1].realtime_start, -1));
    }
  });

  it('maxInWindow counts the busiest half-open window; the virtual clock jumps over a sleep', async () => {
    expect(maxInWindow([0, 59_999], 60_000)).toBe(2);
    expect(maxInWindow([0, 60_000], 60_000)).toBe(1);
    expect(maxInWindow([120_000, 10, 59_999, 0, 60_000], 60_000)).toBe(3);
    const clock = createVirtualClock(5);
    await clock.sleep(60_000);
    clock.advance(1);
    expect(clock.now()).toBe(60_006);
  });
});
