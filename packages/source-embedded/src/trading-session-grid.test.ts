import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  isUsTradingDay,
  localDateOfMicros,
  microsToIso,
  usEarlyCloses,
  usSessionClose,
} from '@asof/calendar';
import { CollectingSink, type ObservationRow } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { generateSyntheticPrices } from './generate-synthetic-prices.ts';
import { tradingSessionGrid } from './trading-session-grid.ts';

const NY = 'America/New_York';
const nyTime = (us: number) =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: NY,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(us / 1000));

describe('tradingSessionGrid', () => {
  it('skips NYSE holidays and closes at 13:00 New York on early-close days', () => {
    const grid = tradingSessionGrid('2024-11-25', '2025-07-07');
    const dates = grid.map((d) => d.date);
    for (const holiday of ['2024-11-28', '2024-12-25', '2025-01-01', '2025-01-09', '2025-07-04'])
      expect(dates, holiday).not.toContain(holiday);
    const close = new Map(grid.map((d) => [d.date, nyTime(d.close)]));
    expect(close.get('2024-11-29')).toBe('13:00');
    expect(close.get('2024-12-24')).toBe('13:00');
    expect(close.get('2025-07-03')).toBe('13:00');
    expect(close.get('2024-11-27')).toBe('16:00');
    expect(microsToIso(grid[0].close)).toBe('2024-11-25T21:00:00.000000Z');
  });
});

/** Records each series' bar timestamps only: the whole default panel is ~5M rows. */
class TimestampSink extends CollectingSink {
  readonly stamps = new Map<string, number[]>();
  override addObservation(row: ObservationRow): void {
    let list = this.stamps.get(row.series_id);
    if (!list) {
      list = [];
      this.stamps.set(row.series_id, list);
    }
    list.push(row.timestamp);
  }
}

describe('the default synthetic panel (pipelines/default.json)', () => {
  const pipeline = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../../pipelines/default.json', import.meta.url)), 'utf8'),
  );
  const config = pipeline.sources.embedded.synthetic as {
    seed: number;
    start: string;
    end: string;
    instruments: number;
  };

  it('has every bar of every instrument at a US session close, none on a holiday', () => {
    const sink = new TimestampSink();
    generateSyntheticPrices(config, sink);
    expect(sink.stamps.size).toBe(config.instruments * 5);
    const sessions = tradingSessionGrid(config.start, config.end).map((d) => d.close);
    const distinct = new Set<number>();
    for (const [id, stamps] of sink.stamps) {
      expect(stamps, id).toEqual(sessions);
      for (const t of stamps) distinct.add(t);
    }
    const days = new Set<string>();
    let early = 0;
    for (const t of distinct) {
      const date = localDateOfMicros(t, NY);
      days.add(date);
      expect(isUsTradingDay(date), date).toBe(true);
      expect(t, date).toBe(usSessionClose(date).micros);
      if (usSessionClose(date).time === '13:00') {
        expect(nyTime(t), date).toBe('13:00');
        early++;
      }
    }
    for (const holiday of ['2024-11-28', '2024-12-25', '2025-01-01', '2025-07-04'])
      expect(days.has(holiday), holiday).toBe(false);
    // Every scheduled early close of the calendar in the panel's range has its 13:00 bar.
    let scheduled = 0;
    for (let y = Number(config.start.slice(0, 4)); y <= Number(config.end.slice(0, 4)); y++)
      for (const d of usEarlyCloses(y).keys()) if (d >= config.start && d <= config.end) scheduled++;
    expect(scheduled).toBeGreaterThan(40);
    expect(early).toBe(scheduled);
    expect(days.size).toBe(sessions.length);
  }, 60_000);
});
