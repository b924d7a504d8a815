import { describe, expect, it } from 'vitest';
import { walkSegment } from './segment-walk.ts';

/** Walks rows given as [step, micros, value] in the order given; returns the tally and the returns with their steps. */
function walk(rows: [number, number, number][]) {
  const returns = new Float64Array(rows.length + 2).fill(-1);
  const steps = new Int32Array(rows.length + 2).fill(-1);
  const tally = walkSegment(
    {
      steps: Int32Array.from(rows.map((r) => r[0])),
      micros: Float64Array.from(rows.map((r) => r[1])),
      values: Float64Array.from(rows.map((r) => r[2])),
    },
    returns,
    steps,
    1,
  );
  return {
    tally,
    returns: [...returns.subarray(1, 1 + tally.nReturns)],
    steps: [...steps.subarray(1, 1 + tally.nReturns)],
  };
}

describe('walkSegment', () => {
  it('gives each step its ratio return against the step before, the first step none', () => {
    const w = walk([
      [0, 100, 10],
      [1, 200, 11],
      [3, 400, 9.9],
    ]);
    expect(w.returns).toEqual([11 / 10 - 1, 9.9 / 11 - 1]);
    expect(w.steps).toEqual([1, 3]);
    expect(w.tally).toEqual({
      nSteps: 3,
      nReturns: 2,
      nPositive: 1,
      minValue: 9.9,
      firstMicros: 100,
      lastMicros: 400,
    });
  });

  it('puts rows that arrive out of order in (step, timestamp) order first', () => {
    const rows: [number, number, number][] = [
      [0, 100, 10],
      [1, 200, 11],
      [2, 300, 12],
      [2, 310, 12.5],
      [4, 500, 13],
    ];
    const sorted = walk(rows);
    expect(walk([rows[3], rows[0], rows[4], rows[2], rows[1]])).toEqual(sorted);
    expect(walk([...rows].reverse())).toEqual(sorted);
  });

  it('keeps the latest row of a step and takes its return against the step before it (segment_steps.sql)', () => {
    const w = walk([
      [0, 100, 10],
      [1, 200, 11],
      [1, 210, 12], // the same step, later: counts; its return is against step 0
      [2, 300, 13],
    ]);
    expect(w.steps).toEqual([1, 2]);
    expect(w.returns).toEqual([12 / 10 - 1, 13 / 12 - 1]);
    expect(w.tally.nSteps).toBe(3);
    // The least value of the counted steps: 11 was replaced by 12.
    expect(w.tally.minValue).toBe(10);
    // Three rows on one step: the model's lag(value, 2) reaches the middle one, and so does the walk.
    const three = walk([
      [0, 100, 10],
      [1, 200, 11],
      [1, 210, 12],
      [1, 220, 14],
    ]);
    expect(three.returns).toEqual([14 / 11 - 1]);
  });

  it('takes differences when any value of the segment, a replaced one too, is ≤ 0', () => {
    expect(
      walk([
        [0, 100, -1],
        [1, 200, 2],
        [2, 300, 5],
      ]).returns,
    ).toEqual([3, 3]);
    // The model's window takes the minimum over every row of the segment, before the latest per step wins.
    expect(
      walk([
        [0, 100, 4],
        [0, 110, 2],
        [1, 200, 0],
        [1, 210, 3],
      ]).returns,
    ).toEqual([1]);
  });

  it('treats NaN as NULL: no return from or to it, no minimum', () => {
    const w = walk([
      [0, 100, 10],
      [1, 200, Number.NaN],
      [2, 300, 12],
      [3, 400, 6],
    ]);
    expect(w.steps).toEqual([3]);
    expect(w.returns).toEqual([6 / 12 - 1]);
    expect(w.tally.nSteps).toBe(4);
    expect(w.tally.minValue).toBe(6);
    expect(walk([[0, 100, Number.NaN]]).tally.minValue).toBeNaN();
  });
});
