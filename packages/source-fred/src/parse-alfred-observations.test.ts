import { describe, expect, it } from 'vitest';
import { isSnapshotResponse, parseAlfredObservations } from './parse-alfred-observations.ts';

const o = (date: string, realtime_start: string, value: string, realtime_end = '9999-12-31') => ({
  date,
  realtime_start,
  realtime_end,
  value,
});

describe('parseAlfredObservations', () => {
  it('keeps a row only where the value changed, skips missing "." and makes a withdrawal a null row', () => {
    const p = parseAlfredObservations(
      [
        o('2000-01-01', '2000-02-01', '1.0'),
        o('2000-01-01', '2000-03-01', '1'), // same number, re-published
        o('2000-01-01', '2000-04-01', '.'), // withdrawn
        o('2000-01-01', '2000-04-15', '.'), // still withdrawn: no second withdrawal row
        o('2000-01-01', '2000-05-01', '1.0'), // restored with the same number: a new row after the withdrawal
        o('2000-01-01', '2000-06-01', '1.5'),
        o('2000-02-01', '2000-03-01', '.'), // missing before any value: not a row, not a withdrawal
        o('2000-02-01', '2000-04-01', '-0.25'),
        o('2000-03-01', '2000-04-01', '7'),
        o('2000-03-01', '2000-05-01', ''), // withdrawn for good
      ],
      'test',
    );
    expect(p.rows).toEqual([
      { date: '2000-01-01', realtime_start: '2000-02-01', value: 1 },
      { date: '2000-01-01', realtime_start: '2000-04-01', value: null },
      { date: '2000-01-01', realtime_start: '2000-05-01', value: 1 },
      { date: '2000-01-01', realtime_start: '2000-06-01', value: 1.5 },
      { date: '2000-02-01', realtime_start: '2000-04-01', value: -0.25 },
      { date: '2000-03-01', realtime_start: '2000-04-01', value: 7 },
      { date: '2000-03-01', realtime_start: '2000-05-01', value: null },
    ]);
    expect(p.withdrawals).toEqual([
      { date: '2000-01-01', realtime_start: '2000-04-01', restored: '2000-05-01' },
      { date: '2000-03-01', realtime_start: '2000-05-01' },
    ]);
    expect(p.missing).toBe(4);
    expect(p.unchanged).toBe(1);
  });

  it('merges several responses, sorted, and refuses two values for one vintage', () => {
    const p = parseAlfredObservations(
      [
        [o('2000-01-01', '2000-03-01', '2')],
        [o('2000-01-01', '2000-02-01', '1'), o('2000-01-01', '2000-03-01', '2')],
      ],
      'merge',
    );
    expect(p.rows.map((r) => r.value)).toEqual([1, 2]);
    expect(() =>
      parseAlfredObservations(
        [[o('2000-01-01', '2000-03-01', '2')], [o('2000-01-01', '2000-03-01', '3')]],
        'f.json',
      ),
    ).toThrow(/f\.json: date 2000-01-01 has two values for realtime_start 2000-03-01/);
    expect(() => parseAlfredObservations([o('2000-01-01', '2000-03-01', 'abc')], 'g.json')).toThrow(
      /g\.json: date 2000-01-01, realtime_start 2000-03-01: value "abc"/,
    );
  });

  it('tells a one-day snapshot from a vintage history', () => {
    expect(isSnapshotResponse({ realtime_start: '2024-12-19', realtime_end: '2024-12-19' })).toBe(true);
    expect(isSnapshotResponse({ realtime_start: '1776-07-04', realtime_end: '9999-12-31' })).toBe(false);
  });
});
