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
    // Whole history 0 … 8 over n = 5 observations: y_1 = 0 is not positive, so the level slope 2, although
    // the tail alone would give 1.
    const rows = makeBaselineForecasts([{ ...o, history_first: 0, history_length: 5 }], () => 'BD');
    expect(values(rows, 'drift')).toEqual([10, 12, 14, 16, 18, 20, 22]);
    // 2 … 8 over n = 3: doubling per step in log levels (a level slope would give 11, 14, …).
    const geometric = makeBaselineForecasts([{ ...o, history_first: 2, history_length: 3 }], () => 'BD');
    expect(values(geometric, 'drift').map((v) => Math.round(v * 1e9) / 1e9)).toEqual([
      16, 32, 64, 128, 256, 512, 1024,
    ]);
    // A negative series (a spread) drifts in levels: −4 … −1 over n = 4 → +1 per step.
    const negative = makeBaselineForecasts(
      [{ ...o, last_value: -1, history_tail: [-4, -3, -2, -1], history_first: -4, history_length: 4 }],
      () => 'BD',
    );
    expect(values(negative, 'drift')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // A single observation: no slope, the random walk.
    const one = makeBaselineForecasts([{ ...o, history_first: 8, history_length: 1 }], () => 'BD');
    expect(values(one, 'drift')).toEqual([8, 8, 8, 8, 8, 8, 8]);
  });

  it('seasonal naive repeats the last season (BD: 5 steps) and falls back to the random walk when the tail is short', () => {
    expect(
      values(
        makeBaselineForecasts([o], () => 'BD'),
        'seasonal_naive',
      ),
    ).toEqual([4, 5, 6, 7, 8, 4, 5]);
    const short = { ...o, history_tail: [7, 8] };
    expect(
      values(
        makeBaselineForecasts([short], () => 'BD'),
        'seasonal_naive',
      ),
    ).toEqual([8, 8, 8, 8, 8, 8, 8]);
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
    expect(a.map((m) => m.model)).toEqual(['random_walk', 'drift', 'seasonal_naive']);
    for (let i = 0; i < a.length; i++) expect(Array.from(b[i].point)).toEqual(Array.from(a[i].point));
    // The canary can fail: the realised values themselves do differ.
    expect(buildEvaluationPanel(origins, poisoned).actual[0]).not.toBe(
      buildEvaluationPanel(origins, targets).actual[0],
    );
  });
});
