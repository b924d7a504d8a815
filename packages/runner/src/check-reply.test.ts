import { describe, expect, it } from 'vitest';
import { checkForecastReply, parseReplyLine } from './check-reply.ts';
import { ModelRunError } from './model-run-error.ts';

const asked = {
  batch: 4,
  originIso: '2020-01-01T04:59:59.999999Z',
  pairs: [
    { series_id: 'a', horizon_steps: 3 },
    { series_id: 'b', horizon_steps: 2 },
  ],
};
const shape = { levels: [0.1, 0.9], samples: 0 };
const reply = (paths: unknown[]) => ({ type: 'forecast', batch: 4, paths });
const fail = (value: unknown, s = shape) => {
  try {
    checkForecastReply(value, asked, s, 'm');
  } catch (e) {
    expect(e).toBeInstanceOf(ModelRunError);
    return e as ModelRunError;
  }
  throw new Error('expected a failure');
};

describe('checkForecastReply', () => {
  it('returns the paths in the batch order, quantiles step-major, skips as null', () => {
    const out = checkForecastReply(
      reply([
        { series_id: 'b', skip: true },
        {
          series_id: 'a',
          point: [1, 2, 3],
          quantiles: [
            [0, 1, 2],
            [2, 3, 4],
          ],
        },
      ]),
      asked,
      shape,
      'm',
    );
    expect(out).toEqual([
      { series_id: 'a', point: [1, 2, 3], quantiles: [0, 2, 1, 3, 2, 4], samples: null },
      null,
    ]);
  });

  it('names the batch, origin, series and step of each problem', () => {
    const ok = { series_id: 'b', skip: true };
    expect(
      fail(
        reply([
          ok,
          {
            series_id: 'a',
            point: [1, 2],
            quantiles: [
              [0, 1],
              [2, 3],
            ],
          },
        ]),
      ).message,
    ).toBe(
      'model m, batch 4 (origin 2020-01-01T04:59:59.999999Z), series a: point has 2 step(s), missing step 3 of 1…3; answer every step',
    );
    expect(fail(reply([ok, { series_id: 'a', point: [1, 2, 3], quantiles: [[0, 1, 2]] }])).code).toBe(
      'MODEL_WRONG_QUANTILES',
    );
    expect(
      fail(
        reply([
          ok,
          {
            series_id: 'a',
            point: [1, 2, 3],
            quantiles: [
              [0, 5, 2],
              [2, 3, 4],
            ],
          },
        ]),
      ).message,
    ).toMatch(/series a: step 2: quantile 0.9 \(3\) is below quantile 0.1 \(5\)/);
    expect(fail(reply([ok])).message).toBe(
      'model m, batch 4 (origin 2020-01-01T04:59:59.999999Z), series a: no path; answer every task of the batch, with {"series_id":…,"skip":true} for one you do not forecast',
    );
    expect(fail({ type: 'ready' }).message).toMatch(
      /^model m, batch 4 \(origin \S+, series a and 1 more\): expected \{"type":"forecast"/,
    );
    expect(fail({ type: 'error', message: 'no GPU' }).message).toBe(
      'model m, batch 4 (origin 2020-01-01T04:59:59.999999Z, series a and 1 more): the model reported an error: no GPU',
    );
  });

  it('names NaN and Infinity, which Python writes though they are not JSON', () => {
    const line =
      '{"type":"forecast","batch":4,"paths":[{"series_id":"b","skip":true},{"series_id":"a","point":[1,NaN,-Infinity]}]}';
    const value = parseReplyLine(line, 'w');
    const e = fail(value, { levels: [], samples: 0 });
    expect(e.code).toBe('MODEL_NOT_FINITE');
    expect(e.message).toMatch(/series a: point step 2 is NaN; every value must be a finite number$/);
    expect(() => parseReplyLine('{"type":', 'w')).toThrow(
      /w: the model wrote a line that is not JSON: "\{\\"type\\":"/,
    );
    // 1e999 parses to Infinity: named too.
    const big = parseReplyLine(
      '{"type":"forecast","batch":4,"paths":[{"series_id":"b","skip":true},{"series_id":"a","point":[1,2,1e999]}]}',
      'w',
    );
    expect(fail(big, { levels: [], samples: 0 }).message).toMatch(/point step 3 is Infinity/);
  });

  it('8.6d: refuses a finite value beyond ±1e15 (point, quantile or sample), naming the batch, series and step', () => {
    const answer = (path: Record<string, unknown>) => ({
      type: 'forecast',
      batch: 4,
      paths: [
        { series_id: 'b', skip: true },
        { series_id: 'a', ...path },
      ],
    });
    const point = fail(answer({ point: [1, 1e308, 2] }), { levels: [], samples: 0 });
    expect(point.code).toBe('MODEL_VALUE_TOO_LARGE');
    expect(point.message).toMatch(
      /^model m, batch 4 \(origin \S+\), series a: point step 2 is 1e\+308, beyond ±1e15/,
    );
    const q = fail(
      answer({
        point: [1, 2, 3],
        quantiles: [
          [1, 2, 3],
          [1, -1e15, 4],
        ],
      }),
      {
        levels: [0.1, 0.9],
        samples: 0,
      },
    );
    expect(q.message).toMatch(/series a: quantile 0\.9 step 2 is -1000000000000000, beyond ±1e15/);
    const s = fail(
      answer({
        point: [1, 2, 3],
        samples: [
          [1, 2, 3],
          [1, 2, 2e15],
        ],
      }),
      { levels: [], samples: 2 },
    );
    expect(s.message).toMatch(/series a: sample 2 step 3 is 2000000000000000, beyond ±1e15/);
  });
});
