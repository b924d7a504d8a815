import { describe, expect, it } from 'vitest';
import { buildEvaluationPanel, panelFromColumns } from './build-evaluation-panel.ts';
import { valueAt } from './value-at.ts';

const origins = [
  { series_id: 'B', origin: '2024-01-02', horizon: 2, last_value: 20, history_tail: [18, 19, 20] },
  { series_id: 'A', origin: '2024-01-04', horizon: 1, last_value: 11 },
  { series_id: 'A', origin: '2024-01-02', horizon: 2, last_value: 10 },
];
const targets = [
  { series_id: 'A', origin: '2024-01-02', step: 1, value: 10.1 },
  { series_id: 'A', origin: '2024-01-02T00:00:00Z', step: 2, value: 10.2 },
  { series_id: 'A', origin: '2024-01-04', step: 1, value: 11.1 },
  { series_id: 'B', origin: '2024-01-02', step: 2, value: 20.2 },
];

describe('buildEvaluationPanel', () => {
  const panel = buildEvaluationPanel(origins, targets);

  it('sorts origins by series then time and lays targets out origin-major (NaN where missing)', () => {
    expect(panel.seriesIds).toEqual(['A', 'B']);
    expect(panel.originIso).toEqual(['2024-01-02', '2024-01-04', '2024-01-02']);
    expect(Array.from(panel.seriesOriginStart)).toEqual([0, 2, 3]);
    expect(Array.from(panel.actual)).toEqual([10.1, 10.2, 11.1, Number.NaN, 20.2]);
  });

  it('valueAt reads targets, the origin value and the history tail', () => {
    expect(valueAt(panel, 2, 2)).toBe(20.2);
    expect(valueAt(panel, 2, 0)).toBe(20);
    expect(valueAt(panel, 2, -2)).toBe(18);
    expect(valueAt(panel, 2, -3)).toBeNaN();
    expect(valueAt(panel, 0, -1)).toBeNaN();
  });

  it('rejects duplicate origins, orphan targets, bad steps and duplicate targets', () => {
    expect(() => buildEvaluationPanel([...origins, origins[0]], targets)).toThrow(/appears twice/);
    expect(() =>
      buildEvaluationPanel(origins, [{ series_id: 'C', origin: '2024-01-02', step: 1, value: 1 }]),
    ).toThrow(/targets row 1: target for C @ 2024-01-02 has no origin row/);
    expect(() =>
      buildEvaluationPanel(origins, [{ series_id: 'A', origin: '2024-01-04', step: 2, value: 1 }]),
    ).toThrow(/step 2 .* expected 1…1/);
    expect(() => buildEvaluationPanel(origins, [...targets, targets[0]])).toThrow(/second target/);
  });

  it('panelFromColumns gives the same panel from columns, and rejects unsorted origins', () => {
    const cols = {
      seriesIds: panel.seriesIds,
      originSeries: panel.originSeries,
      originIso: panel.originIso,
      horizon: panel.horizon,
      lastValue: panel.lastValue,
      historyTail: panel.historyTail,
      actual: panel.actual,
    };
    const p2 = panelFromColumns(cols);
    expect(Array.from(p2.targetOffset)).toEqual(Array.from(panel.targetOffset));
    expect(Array.from(p2.seriesOriginStart)).toEqual(Array.from(panel.seriesOriginStart));
    expect([...p2.originKey]).toEqual([...panel.originKey]);
    expect(() =>
      panelFromColumns({ ...cols, originIso: ['2024-01-04', '2024-01-02', '2024-01-02'] }),
    ).toThrow(/out of order/);
  });
});
