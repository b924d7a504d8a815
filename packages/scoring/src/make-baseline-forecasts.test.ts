import { describe, expect, it } from 'vitest';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { makeBaselineForecasts, makePanelBaselines } from './make-baseline-forecasts.ts';
import type { OriginRow } from './score-types.ts';

const values = (rows: ReturnType<typeof makeBaselineForecasts>, model: string) =>
  rows.filter((r) => r.model === model).map((r) => r.value);

describe('makeBaselineForecasts', () => {
  const o: OriginRow = {
    series_id: 'x',
    origin: '2024-01-05',
    horizon: 7,
    last_value: 8,
    history_tail: [1, 2, 3, 4, 5, 6, 7, 8],
  };

  it('random walk repeats y_o; drift extends the mean log change over the tail for a positive series', () => {
    const rows = makeBaselineForecasts([o], () => 'BD');
    expect(values(rows, 'random_walk')).toEqual([8, 8, 8, 8, 8, 8, 8]);
    // 1 … 8 over n = 8: g = ln 8 / 7, so ŷ_{o+k} = 8·8^(k/7); after 7 steps one more factor 8.
    const drift = values(rows, 'drift');
    for (let k = 1; k <= 7; k++) expect(drift[k - 1]).toBeCloseTo(8 * 8 ** (k / 7), 12);
    expect(drift[6]).toBeCloseTo(64, 12);
  });

  it("drift's slope is over the whole history known at the origin when given; levels unless y_1, y_o > 0", () => {
    // Whole history from y_1 = 0, 4 grid steps before the origin (y_o's own step): y_1 = 0 is not positive,
    // so the level slope (8 − 0)/4 = 2, although the tail alone would give 1.
    const rows = makeBaselineForecasts([{ ...o, history_first: 0, history_first_back: 4 }], () => 'BD');
    expect(values(rows, 'drift')).toEqual([10, 12, 14, 16, 18, 20, 22]);
    // 2 … 8 over 2 steps: doubling per step in log levels (a level slope would give 11, 14, …).
    const geometric = makeBaselineForecasts([{ ...o, history_first: 2, history_first_back: 2 }], () => 'BD');
    expect(values(geometric, 'drift').map((v) => Math.round(v * 1e9) / 1e9)).toEqual([
      16, 32, 64, 128, 256, 512, 1024,
    ]);
    // A negative series (a spread) drifts in levels: −4 … −1 over 3 steps → +1 per step.
    const negative = makeBaselineForecasts(
      [{ ...o, last_value: -1, history_tail: [-4, -3, -2, -1], history_first: -4, history_first_back: 3 }],
      () => 'BD',
    );
    expect(values(negative, 'drift')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // A single observation (y_1 is y_o, on the origin's step): no slope, the random walk.
    const one = makeBaselineForecasts([{ ...o, history_first: 8, history_first_back: 0 }], () => 'BD');
    expect(values(one, 'drift')).toEqual([8, 8, 8, 8, 8, 8, 8]);
  });

  it("drift's slope runs over grid steps, not observations: a hole in the served history does not steepen it", () => {
    // y = 2·step over steps 1…30, served with a hole: y_1 (step 1), then only steps 21…30 (the tail), the
    // origin on step 30. 11 observations, 29 steps apart: slope (60 − 2)/29 = 2, the line's own. Counting
    // the observations ((60 − 2)/10 = 5.8) was the audit's mismatch 2.
    const tail = Array.from({ length: 10 }, (_, i) => -2 * (21 + i));
    const back = Array.from({ length: 10 }, (_, i) => 9 - i);
    const line: OriginRow = {
      series_id: 'h',
      origin: '2024-01-05',
      horizon: 3,
      last_value: -60,
      history_tail: tail,
      history_tail_back: back,
      history_first: -2,
      history_first_back: 29,
    };
    expect(
      values(
        makeBaselineForecasts([line], () => 'BD'),
        'drift',
      ),
    ).toEqual([-62, -64, -66]);
    // The tail alone on the grid (no whole history given): its own ends, 9 steps apart, the same slope.
    const tailOnly = { ...line, history_first: undefined, history_first_back: undefined };
    expect(
      values(
        makeBaselineForecasts([tailOnly], () => 'BD'),
        'drift',
      ),
    ).toEqual([-62, -64, -66]);
    // A tail with a hole inside: steps 21, 22 and 29, 30 (4 values, 9 steps apart): still 2 per step.
    const holed = {
      ...tailOnly,
      history_tail: [-42, -44, -58, -60],
      history_tail_back: [9, 8, 1, 0],
    };
    expect(
      values(
        makeBaselineForecasts([holed], () => 'BD'),
        'drift',
      ),
    ).toEqual([-62, -64, -66]);
  });

  it('seasonal naive repeats the last season (BD: 5 steps) and falls back to the random walk when the tail is short', () => {
    expect(
      values(
        makeBaselineForecasts([o], () => 'BD'),
        'seasonal_naive',
      ),
    ).toEqual([4, 5, 6, 7, 8, 4, 5]);
    // Only steps o−1 and o are in the tail: step o+4−5 = o−1 gives 7 and o+5−5 = o gives 8; the others
    // (o−4, o−3, o−2) are not there, so y_o.
    const short = { ...o, history_tail: [7, 8] };
    expect(
      values(
        makeBaselineForecasts([short], () => 'BD'),
        'seasonal_naive',
      ),
    ).toEqual([8, 8, 8, 7, 8, 8, 8]);
    expect(
      values(
        makeBaselineForecasts([{ ...o, history_tail: undefined }], () => 'BD'),
        'drift',
      ),
    ).toEqual([8, 8, 8, 8, 8, 8, 8]);
    // Annual series have no season: random walk.
    expect(
      values(
        makeBaselineForecasts([o], () => 'A'),
        'seasonal_naive',
      ),
    ).toEqual([8, 8, 8, 8, 8, 8, 8]);
  });

  // Series released after their period: the split's inputs at the origin end before the origin's own step,
  // and history_tail_back (origin_index − step_index) says where each value lies on the grid. Values name
  // their period (201901 = January 2019, 20193 = 2019Q3).
  const months = (from: [number, number], to: [number, number]) => {
    const out: number[] = [];
    for (let k = from[0] * 12 + from[1] - 1; k <= to[0] * 12 + to[1] - 1; k++)
      out.push(Math.floor(k / 12) * 100 + (k % 12) + 1);
    return out;
  };

  it('seasonal naive, monthly with a one-month lag: counted from the origin’s step, not the last value', () => {
    // Origin December 2019: the inputs are December 2018 … November 2019 (12 public months), u = 1.
    const tail = months([2018, 12], [2019, 11]);
    const row: OriginRow = {
      series_id: 'm',
      origin: '2019-12-31T23:59:59Z',
      horizon: 12,
      last_value: 201911,
      history_tail: tail,
      history_tail_back: tail.map((_, r) => 12 - r),
    };
    expect(
      values(
        makeBaselineForecasts([row], () => 'M'),
        'seasonal_naive',
      ),
    ).toEqual([
      ...months([2019, 1], [2019, 11]),
      // December 2019 (step o) is not public: December 2018.
      201812,
    ]);
    // Without the grid steps, the tail would be read as ending at the origin: shifted by the lag.
    expect(
      values(
        makeBaselineForecasts([{ ...row, history_tail_back: undefined }], () => 'M'),
        'seasonal_naive',
      )[0],
    ).toBe(201812);
    // The random walk is the last value public at the origin.
    expect(
      values(
        makeBaselineForecasts([row], () => 'M'),
        'random_walk',
      ),
    ).toEqual(Array(12).fill(201911));
  });

  it('seasonal naive falls back to the same season further back, then to y_o', () => {
    // March 2019 withdrawn at the origin: the 24 public months November 2017 … November 2019 without it.
    const tail = months([2017, 11], [2019, 11]).filter((v) => v !== 201903);
    const back = tail.map((v) => {
      const y = Math.floor(v / 100);
      return (2019 - y) * 12 + 12 - (v % 100);
    });
    const row: OriginRow = {
      series_id: 'm',
      origin: '2019-12-31T23:59:59Z',
      horizon: 4,
      last_value: 201911,
      history_tail: tail,
      history_tail_back: back,
    };
    expect(
      values(
        makeBaselineForecasts([row], () => 'M'),
        'seasonal_naive',
      ),
    ).toEqual([201901, 201902, 201803, 201904]);
    // Only the last 12 public months: no March at all, so y_o.
    const short = { ...row, history_tail: tail.slice(-12), history_tail_back: back.slice(-12) };
    expect(
      values(
        makeBaselineForecasts([short], () => 'M'),
        'seasonal_naive',
      ),
    ).toEqual([201901, 201902, 201911, 201904]);
  });

  it('seasonal naive and drift, quarterly with a 40-day lag (2019Q4 origin, 2019Q3 the last public quarter)', () => {
    const row: OriginRow = {
      series_id: 'q',
      origin: '2019-12-31T23:59:59Z',
      horizon: 4,
      last_value: 20193,
      history_tail: [20184, 20191, 20192, 20193],
      history_tail_back: [4, 3, 2, 1],
    };
    expect(
      values(
        makeBaselineForecasts([row], () => 'Q'),
        'seasonal_naive',
      ),
    ).toEqual([20191, 20192, 20193, 20184]);
    // A series that starts in 2019Q1: no fourth quarter is public, so 2020Q4 is y_o.
    const young = { ...row, history_tail: [20191, 20192, 20193], history_tail_back: [3, 2, 1] };
    expect(
      values(
        makeBaselineForecasts([young], () => 'Q'),
        'seasonal_naive',
      ),
    ).toEqual([20191, 20192, 20193, 20193]);
    // Drift: y = 2·step − 100 over steps 1…15 (y_1 = −98 on step 1, 15 steps before the origin's step 16;
    // y_o = −70 on step 15: slope 28/14 = 2 in levels), and 2020Q1 is k + u = 2 steps after y_o: −66, −64,
    // −62, −60 (the line's own steps 17…20).
    const line = {
      ...row,
      last_value: -70,
      history_tail: [-76, -74, -72, -70],
      history_first: -98,
      history_first_back: 15,
    };
    expect(
      values(
        makeBaselineForecasts([line], () => 'Q'),
        'drift',
      ),
    ).toEqual([-66, -64, -62, -60]);
  });

  it('canary: poisoning every target leaves the panel baselines bit-identical', () => {
    const origins = [
      o,
      { ...o, origin: '2024-01-12', last_value: 9, history_tail: [2, 3, 4, 5, 6, 7, 8, 9] },
    ];
    const targets = origins.flatMap((x) =>
      Array.from({ length: 7 }, (_, k) => ({
        series_id: 'x',
        origin: x.origin,
        step: k + 1,
        value: x.last_value + k,
      })),
    );
    const poisoned = targets.map((t) => ({ ...t, value: t.value * 1000 + 7 }));
    const a = makePanelBaselines(buildEvaluationPanel(origins, targets), ['BD']);
    const b = makePanelBaselines(buildEvaluationPanel(origins, poisoned), ['BD']);
    expect(a.map((m) => m.model)).toEqual(['random_walk', 'drift', 'seasonal_naive', 'arima', 'garch']);
    for (let i = 0; i < a.length; i++) {
      expect(Array.from(b[i].point)).toEqual(Array.from(a[i].point));
      expect(b[i].quantiles && Array.from(b[i].quantiles!)).toEqual(
        a[i].quantiles && Array.from(a[i].quantiles!),
      );
    }
    // ARIMA really ran (a fitted path with quantiles around it), so the canary covers it.
    const arima = a[3];
    expect(arima.quantileLevels).toHaveLength(19);
    expect(arima.quantiles![0]).toBeLessThan(arima.point[0]);
    // The canary can fail: the realised values themselves do differ.
    expect(buildEvaluationPanel(origins, poisoned).actual[0]).not.toBe(
      buildEvaluationPanel(origins, targets).actual[0],
    );
  });
});
