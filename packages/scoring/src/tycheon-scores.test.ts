import { InputError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { maseOriTask } from './make-random-walk-panel.ts';
import { positiveSeries } from './positive-series.ts';
import { scorePanel } from './score-panel.ts';
import type { ForecastRow } from './score-types.ts';
import { forecastVariance, intervalBounds, tycheonFrame, tycheonLosses } from './tycheon-scores.ts';

// P is a price (positive everywhere): log-return space. N crosses zero (a spread): scaled change.
const origins = [
  { series_id: 'N', origin: '2024-01-05', horizon: 2, last_value: 2, history_tail: [-2, -1, 1, 2] },
  { series_id: 'P', origin: '2024-01-05', horizon: 2, last_value: 100, history_tail: [100, 110, 99, 100] },
];
const targets = [
  { series_id: 'N', origin: '2024-01-05', step: 1, value: 3 },
  { series_id: 'N', origin: '2024-01-05', step: 2, value: 1 },
  { series_id: 'P', origin: '2024-01-05', step: 1, value: 105 },
  { series_id: 'P', origin: '2024-01-05', step: 2, value: 121 },
];
const panel = buildEvaluationPanel(origins, targets);
const frame = tycheonFrame(panel);
const N = 0;
const P = 1;
const a = Math.log(1.1);

/** Sample std (n − 1) of a few numbers, by hand. */
const std = (xs: number[]) => {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
};

const rows = (model: string, n: number, p: number, extra: Partial<ForecastRow> = {}): ForecastRow[] => [
  { model, series_id: 'N', origin: '2024-01-05', step: 1, value: n },
  { model, series_id: 'N', origin: '2024-01-05', step: 2, value: n },
  { model, series_id: 'P', origin: '2024-01-05', step: 1, value: p },
  { model, series_id: 'P', origin: '2024-01-05', step: 2, value: p, ...extra },
];

describe('Tycheon space: horizon-end log returns, scaled change where a series reaches ≤ 0', () => {
  it('finds the positive series', () => {
    expect(Array.from(positiveSeries(panel))).toEqual([0, 1]);
    expect(Array.from(frame.logSpace)).toEqual([0, 1]);
  });

  it('realises ln(y_{o+H}/y_o) for a positive series; FinTSB keeps the simple return', () => {
    expect(frame.realized[P]).toBeCloseTo(Math.log(1.21), 14);
    expect(frame.change[P]).toBeCloseTo(0.21, 14);
    // N: (1 − 2)/|2| in both.
    expect(frame.realized[N]).toBe(-0.5);
    expect(frame.change[N]).toBe(-0.5);
  });

  it("the random walk's σ and the realised variance use one-step log returns (scaled changes for N)", () => {
    expect(frame.rwSigma[P]).toBeCloseTo(std([a, Math.log(0.9), Math.log(100 / 99)]) * Math.SQRT2, 14);
    expect(frame.realizedVariance[P]).toBeCloseTo(Math.log(1.05) ** 2 + Math.log(121 / 105) ** 2, 14);
    expect(frame.rwSigma[N]).toBeCloseTo(std([0.5, 1, 0.5]) * Math.SQRT2, 14);
    expect(frame.realizedVariance[N]).toBeCloseTo(0.5 ** 2 + 1 ** 2, 14);
  });

  it('point, sample and quantile forecasts are taken to the same space', () => {
    const [point] = alignForecasts(panel, forecastRowsToTable(rows('m', 0, 110)));
    const l = tycheonLosses(panel, point, frame);
    expect(l.forecast[P]).toBeCloseTo(a, 14);
    expect(l.change[P]).toBeCloseTo(0.1, 14);
    expect(l.squaredError[P]).toBeCloseTo(a ** 2, 14); // ln 1.1 vs ln 1.21 = 2·ln 1.1
    expect(l.crps[P]).toBeCloseTo(a, 14);
    expect(l.forecast[N]).toBe(-1); // (0 − 2)/2: a zero is a fine forecast for a spread
    // Samples 100, 110 → log returns 0, a against 2a: fair CRPS = (2a + a)/2 − (2·a)/(2·2·1) = a.
    const [samples] = alignForecasts(
      panel,
      forecastRowsToTable(
        rows('s', 0, 110).map((r) => ({ ...r, samples: r.series_id === 'P' ? [100, 110] : [0, 1] })),
      ),
    );
    expect(tycheonLosses(panel, samples, frame).crps[P]).toBeCloseTo(a, 14);
    expect(forecastVariance(panel, samples, frame)!.variance[P]).toBeCloseTo(a ** 2 / 2, 14);
    // Quantiles map through ln(q/y_o): the 80% interval of q0.1 = 90, q0.9 = 121.
    const [quantiles] = alignForecasts(
      panel,
      forecastRowsToTable(
        rows('q', 0, 110).map((r) => ({
          ...r,
          quantiles: r.series_id === 'P' ? { 'q0.1': 90, 'q0.9': 121 } : { 'q0.1': -1, 'q0.9': 1 },
        })),
      ),
    );
    const b = intervalBounds(panel, quantiles, frame, 0.8)!;
    expect(b.lower[P]).toBeCloseTo(Math.log(0.9), 14);
    expect(b.upper[P]).toBeCloseTo(Math.log(1.21), 14);
    expect(b.lower[N]).toBe(-1.5);
  });

  it('refuses a forecast ≤ 0 for a positive series, naming the row and column', () => {
    const refuse = (r: ForecastRow[]) => {
      try {
        alignForecasts(panel, forecastRowsToTable(r, 'f.csv'));
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        return e as InputError;
      }
      throw new Error('not refused');
    };
    const point = refuse(rows('m', 0, 0));
    expect(point.code).toBe('FORECAST_NOT_POSITIVE');
    expect(point.message).toMatch(/f\.csv row 3: value is 0 but P is positive throughout the split/);
    const sample = refuse(
      rows('s', 1, 110).map((r, i) => ({ ...r, samples: i === 3 ? [100, -5] : [r.value, r.value] })),
    );
    expect(sample.message).toMatch(/f\.csv row 4: s2 is -5 but P/);
  });
});

describe('scorePanel in Tycheon space', () => {
  const task = (series_id: string) => maseOriTask(series_id, { frequency: 'BD' });
  const results = scorePanel({
    tasks: [task('N'), task('P')],
    panel,
    models: alignForecasts(panel, forecastRowsToTable(rows('m', 0, 110))),
  });
  const value = (model: string, metric: string) =>
    results.values.find((v) => v.model === model && v.metric === metric)!.value;

  it('records the space and warns about the series in scaled change', () => {
    expect(results.config.tycheon_space).toBe('horizon_end_log_return');
    expect(results.warnings).toContainEqual(
      expect.objectContaining({ code: 'TYCHEON_SCALED_CHANGE', count: 1 }),
    );
  });

  it('Tycheon errors are in log returns (P) and scaled change (N); FinTSB errors in simple returns', () => {
    // One unit, two origins: P errs by ln 1.1 − ln 1.21 = −a, N by −1 − (−0.5) = −0.5.
    expect(value('m', 'tycheon.mae')).toBeCloseTo((a + 0.5) / 2, 14);
    // Simple returns: P errs by 0.1 − 0.21 = −0.11, N by −0.5.
    expect(value('m', 'fintsb.mae')).toBeCloseTo((0.11 + 0.5) / 2, 14);
    // The random walk errs by the realised return itself: ln 1.21 and 0.5.
    expect(value('random_walk', 'tycheon.mae')).toBeCloseTo((Math.log(1.21) + 0.5) / 2, 14);
  });
});
