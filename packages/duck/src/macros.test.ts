import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Duck } from './open-duck.ts';

// sql/macros.sql: the expressions asof's models share. The grid's cases pin the calendar grid segments are
// cut on, which segment_placed.sql (@asof/patterns) and the update's segment windows (@asof/build) both
// call; the update tests (tests/update-diff.test.ts) check an update still equals a build, byte for byte.
let duck: Duck;
beforeAll(async () => {
  duck = await Duck.open({ threads: 1 });
});
afterAll(() => duck.close());

describe('iso_instant', () => {
  it('writes an instant as UTC ISO text with microseconds, NULL as NULL', async () => {
    const r = await duck.one<{ a: string; b: string; c: string | null }>(
      `SELECT iso_instant(TIMESTAMPTZ '2021-07-20 16:00:00.5-04:00') AS a,
              iso_instant(TIMESTAMP '1999-12-31 23:59:59.999999') AS b, iso_instant(NULL::TIMESTAMPTZ) AS c`,
    );
    expect(r).toEqual({ a: '2021-07-20T20:00:00.500000Z', b: '1999-12-31T23:59:59.999999Z', c: null });
  });

  it('is defined on every connection, a sibling included', async () => {
    const sibling = await duck.connect();
    try {
      expect(await sibling.one("SELECT iso_instant(TIMESTAMPTZ '2020-01-01 00:00:00+00') AS a")).toEqual({
        a: '2020-01-01T00:00:00.000000Z',
      });
    } finally {
      sibling.close();
    }
  });
});

describe('grid_position (epoch 1990-01-01, a Monday)', () => {
  const cases: [string, string, number][] = [
    ['1990-01-01 12:00:00+00', 'BD', 0],
    // Shifted back 6 h (BD, D): 05:00 UTC on Tuesday is still Monday's session.
    ['1990-01-02 05:00:00+00', 'BD', 0],
    ['1990-01-02 06:00:00+00', 'BD', 1],
    ['1990-01-05 12:00:00+00', 'BD', 4],
    // A Saturday takes the Friday's position (segment_placed drops such rows first).
    ['1990-01-06 12:00:00+00', 'BD', 4],
    ['1990-01-08 12:00:00+00', 'BD', 5],
    ['1989-12-31 12:00:00+00', 'BD', -1],
    ['1990-01-06 12:00:00+00', 'D', 5],
    ['1989-12-31 12:00:00+00', 'D', -1],
    // Shifted back 12 h (W, M, Q, A): Sunday 23:59 local of a UTC+11 zone is still the first week.
    ['1990-01-14 12:00:00+00', 'W', 1],
    ['1990-01-15 11:59:59+00', 'W', 1],
    ['1990-01-15 12:00:00+00', 'W', 2],
    ['1989-12-31 12:00:00+00', 'W', -1],
    ['1990-02-01 06:00:00+00', 'M', 0],
    ['1990-02-01 13:00:00+00', 'M', 1],
    ['1990-04-01 12:00:00+00', 'Q', 1],
    ['1991-01-01 11:59:59+00', 'A', 0],
    ['1991-01-01 12:00:00+00', 'A', 1],
  ];
  it.each(cases)('%s %s → %i', async (ts, freq, position) => {
    const r = await duck.one<{ p: bigint; d: bigint }>(
      `SELECT grid_position($ts::TIMESTAMPTZ, $freq, DATE '1990-01-01') AS p,
              grid_step(grid_day($ts::TIMESTAMPTZ, grid_offset_us($freq), DATE '1990-01-01'), grid_code($freq),
                        DATE '1990-01-01') AS d`,
      { ts, freq },
    );
    expect(Number(r.p)).toBe(position);
    expect(r.d).toBe(r.p);
  });

  it('has no position for a frequency off the grid', async () => {
    expect(
      await duck.one(
        "SELECT grid_position(TIMESTAMPTZ '2020-01-01 00:00:00+00', 'X', DATE '1990-01-01') AS p",
      ),
    ).toEqual({
      p: null,
    });
  });
});
