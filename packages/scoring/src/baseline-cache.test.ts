import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { baselineCacheKey, decodeBaselines, encodeBaselines, type ScoreStore } from './baseline-cache.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { makePanelBaselines } from './make-baseline-forecasts.ts';
import { makeRandomWalkPanel } from './make-random-walk-panel.ts';
import { decodeSplitPanel, encodeSplitPanel, splitPanelKey } from './panel-cache.ts';
import { SCORER_VERSION, scorePanel, seriesFrequencyOf } from './score-panel.ts';
import { BASELINE_MODELS, type ForecastRow } from './score-types.ts';

// Issue 51 item 5: the scorer's own baselines, kept between scores of the same split.
const data = makeRandomWalkPanel({ seed: 3, units: 1, seriesPerUnit: 3, originsPerSeries: 12, tail: 80 });
const panel = buildEvaluationPanel(data.origins, data.targets);
const frequencies = seriesFrequencyOf(panel, data.tasks);
const model = alignForecasts(
  panel,
  forecastRowsToTable(
    data.targets.map(
      (t): ForecastRow => ({
        model: 'm',
        series_id: t.series_id,
        origin: t.origin,
        step: t.step,
        value: t.value * 1.001,
      }),
    ),
  ),
);

class MemoryStore implements ScoreStore {
  readonly entries = new Map<string, Uint8Array>();
  gets = 0;
  hits = 0;
  get(key: string) {
    this.gets++;
    const v = this.entries.get(key) ?? null;
    if (v) this.hits++;
    return v;
  }
  put(key: string, bytes: Uint8Array) {
    this.entries.set(key, bytes);
  }
}

const keyOf = (parts: Partial<Parameters<typeof baselineCacheKey>[0]> = {}, p = panel) =>
  baselineCacheKey(
    {
      datasetId: 'd'.repeat(64),
      scorerVersion: SCORER_VERSION,
      baselines: [...BASELINE_MODELS],
      refitEvery: 10,
      seriesFrequency: frequencies,
      ...parts,
    },
    p,
  );

describe('the baselines cache (issue 51 item 5)', () => {
  it('round-trips every baseline bit for bit, with the fitted baselines’ notes', () => {
    const notes = new Map();
    const own = makePanelBaselines(panel, frequencies, BASELINE_MODELS, {}, notes);
    const origins = panel.horizon.length;
    const back = decodeBaselines(
      encodeBaselines(own, notes, panel.actual.length),
      panel.actual.length,
      [...BASELINE_MODELS],
      origins,
    )!;
    expect(back.models).toEqual(own);
    expect([...back.notes]).toEqual([...notes]);
    // Bytes for another panel size or another list of baselines are not taken.
    const bytes = encodeBaselines(own, notes, panel.actual.length);
    expect(decodeBaselines(bytes, panel.actual.length - 1, [...BASELINE_MODELS], origins)).toBeNull();
    expect(decodeBaselines(bytes, panel.actual.length, ['random_walk', 'drift'], origins)).toBeNull();
    expect(
      decodeBaselines(
        bytes.subarray(0, bytes.length - 8),
        panel.actual.length,
        [...BASELINE_MODELS],
        origins,
      ),
    ).toBeNull();
  });

  it('keys by the split, the settings, the frequencies and every panel input the baselines read', () => {
    const k = keyOf();
    expect(keyOf()).toBe(k);
    expect(keyOf({ datasetId: 'e'.repeat(64) })).not.toBe(k);
    expect(keyOf({ refitEvery: 5 })).not.toBe(k);
    expect(keyOf({ baselines: ['random_walk', 'drift'] })).not.toBe(k);
    expect(keyOf({ scorerVersion: '9.9.9' })).not.toBe(k);
    expect(keyOf({ seriesFrequency: frequencies.map(() => 'M') })).not.toBe(k);
    const other = buildEvaluationPanel(
      data.origins.map((o, i) =>
        i === 5 ? { ...o, history_tail: o.history_tail!.map((x) => x + 1e-9) } : o,
      ),
      data.targets,
    );
    expect(keyOf({}, other)).not.toBe(k);
  });

  it('a second score with a new model reuses the stored baselines and gives the same bytes as a cold one', () => {
    const store = new MemoryStore();
    const cache = { store, key: keyOf() };
    const lines: string[] = [];
    const first = scorePanel({ tasks: data.tasks, panel, models: [], baselineCache: cache });
    expect([store.gets, store.hits, store.entries.size]).toEqual([1, 0, 1]);
    const warm = scorePanel({
      tasks: data.tasks,
      panel,
      models: model,
      baselineCache: cache,
      options: { log: (l) => lines.push(l) },
    });
    expect([store.gets, store.hits]).toEqual([2, 1]);
    expect(lines.some((l) => l.includes('baselines reused'))).toBe(true);
    expect(lines.some((l) => l.includes('baselines made'))).toBe(false);
    const cold = scorePanel({ tasks: data.tasks, panel, models: model });
    expect(JSON.stringify(warm)).toBe(JSON.stringify(cold));
    expect(first.models.map((m) => m.model)).toEqual([...BASELINE_MODELS]);
    // Stored bytes that do not decode for this panel are not used: the baselines are made again.
    store.entries.set(cache.key, new Uint8Array(16));
    const again = scorePanel({ tasks: data.tasks, panel, models: model, baselineCache: cache });
    expect(JSON.stringify(again)).toBe(JSON.stringify(cold));
  });

  it('keeps a split’s panel as read, every column bit for bit, labels, windows and tasks included', () => {
    const labelled = buildEvaluationPanel(
      data.origins.map((o, i) => ({
        ...o,
        ...(i % 3 ? { origin_label: `L${i}` } : {}),
        ...(i % 2 ? { window: 'T2' as const } : {}),
        ...(i === 4 ? { history_tail: undefined } : {}),
        history_tail_back: o.history_tail?.map((_, k, a) => a.length - 1 - k),
      })),
      data.targets.filter((_, i) => i % 7),
    );
    const back = decodeSplitPanel(encodeSplitPanel(labelled, data.tasks))!;
    expect(back.panel).toEqual(labelled);
    expect(back.tasks).toEqual(data.tasks);
    expect(Object.keys(back.panel).sort()).toEqual(Object.keys(labelled).sort());
    const plain = decodeSplitPanel(encodeSplitPanel(panel, null))!;
    expect(plain.panel).toEqual(panel);
    expect('originWindow' in plain.panel).toBe(false);
    expect(plain.tasks).toBeNull();
    const bytes = encodeSplitPanel(panel, null);
    expect(decodeSplitPanel(bytes.subarray(0, bytes.length - 4))).toBeNull();
    expect(splitPanelKey('d'.repeat(64))).not.toBe(splitPanelKey('e'.repeat(64)));
  });
});
