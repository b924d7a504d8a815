import { join } from 'node:path';
import { ArimaBaseline, BASELINE_QUANTILE_LEVELS } from '@asof/baselines';
import { Duck, quoteLiteral } from '@asof/duck';
import { verifyManifest } from '@asof/manifest';
import {
  buildEvaluationPanel,
  type EvaluationPanel,
  RANDOM_WALK_SIGMA_RETURNS,
  randomWalkSigma,
  readSplitTables,
  type SplitData,
  scorePanel,
} from '@asof/scoring';
import { HistoryStore } from '@asof/split';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asof, removeOutput, scratchOut } from './helpers.ts';
import { defaultFixture } from './shared-fixtures.ts';

// Issue 51 (audit scoring-2026-12, mismatches 1 and 2, note A) on the README's "Your first benchmark" split:
// `asof split --manifest out/default/manifest.json --out out/first-split --model-cutoff 2021-12-31
// --run-date 2025-12-31 --series 'syn:fred:*'` on the default universe. It serves nothing of 2020 for its
// monthly and quarterly series (the origins between its T1 and T2 windows straddle the cutoff).
const split = scratchOut('readme-split-baselines');
let universe = '';
let data: SplitData;
let panel: EvaluationPanel;
const frequency = new Map<string, string>();
beforeAll(async () => {
  universe = (await defaultFixture()).universe;
  const r = await asof(
    'split',
    '--manifest',
    join(universe, 'manifest.json'),
    '--out',
    split.rel,
    '--model-cutoff',
    '2021-12-31',
    '--run-date',
    '2025-12-31',
    '--series',
    'syn:fred:*',
  );
  expect(r.code, r.stderr).toBe(0);
  data = await readSplitTables(await verifyManifest(join(split.abs, 'manifest.json')), split.abs);
  panel = buildEvaluationPanel(data.origins, data.targets);
  for (const t of data.tasks ?? []) frequency.set(t.series_id, t.frequency);
});
afterAll(() => removeOutput(split.abs));

describe('the README split: ARIMA "no change" is y_o itself', () => {
  it('every ARIMA path that is no change in exact arithmetic is y_o in every bit; no other path is within rounding of it', () => {
    // The scorer's own ARIMA, per series in ascending origin order as it fits them (refit every 10).
    // An auto.arima model forecasts y_o at every step in exact arithmetic only as a random walk
    // (ARIMA(0,1,0) without drift) or on a constant window, whatever the data (`noChange`); any other order
    // forecasts through estimated coefficients, a mean or a drift. Computed as exp(ln y_o) such a path was
    // an ulp off y_o at 243 of the README split's 3,246 origins.
    const arima = new ArimaBaseline();
    const median = BASELINE_QUANTILE_LEVELS.indexOf(0.5);
    const K = BASELINE_QUANTILE_LEVELS.length;
    let still = 0;
    let moving = 0;
    const stillOrigins = new Map<string, number>();
    for (let o = 0; o < panel.horizon.length; o++) {
      const id = panel.seriesIds[panel.originSeries[o]];
      if (!frequency.has(id)) continue;
      const path = arima.pathAt(
        id,
        panel.originTime[o],
        panel.historyTail[o]!,
        panel.historyTailBack[o],
        panel.horizon[o],
        panel.originIndex[o],
      );
      expect(path, `${id} @ ${panel.originIso[o]}`).not.toBeNull();
      const y0 = panel.lastValue[o];
      if (path!.noChange) {
        still++;
        stillOrigins.set(id, (stillOrigins.get(id) ?? 0) + 1);
        for (let k = 0; k < panel.horizon[o]; k++) {
          expect(Object.is(path!.point[k], y0), `${id} @ ${panel.originIso[o]} step ${k + 1}`).toBe(true);
          expect(Object.is(path!.quantiles[k * K + median], y0)).toBe(true);
        }
      } else {
        moving++;
        let change = 0;
        for (let k = 0; k < panel.horizon[o]; k++)
          change = Math.max(change, Math.abs(path!.point[k] / y0 - 1));
        expect(change, `${id} @ ${panel.originIso[o]}: a change within rounding of y_o`).toBeGreaterThan(
          1e-12,
        );
      }
    }
    expect(still).toBeGreaterThan(0);
    expect(moving).toBeGreaterThan(0);
    // syn:fred:SYNPPI (audit: forecast returns [4.4e-16, 2.2e-16, 0, 2.2e-16], IC −0.422): a random walk at
    // every origin.
    const ppi = panel.seriesIndex.get('syn:fred:SYNPPI')!;
    expect(stillOrigins.get('syn:fred:SYNPPI')).toBe(
      panel.seriesOriginStart[ppi + 1] - panel.seriesOriginStart[ppi],
    );
  });

  it("syn:fred:SYNPPI's ARIMA IC, RankIC and directional accuracy are n/a (a constant no-change forecast)", () => {
    const tasks = (data.tasks ?? []).filter((t) => t.series_id === 'syn:fred:SYNPPI');
    expect(tasks.length).toBeGreaterThan(0);
    // The scorer's own baselines on the split's panel, SYNPPI alone scored.
    const results = scorePanel({ tasks, panel, models: [] });
    const cell = (model: string, metric: string) =>
      results.values.find((v) => v.model === model && v.metric === metric);
    for (const metric of ['tycheon.ic', 'tycheon.rank_ic', 'tycheon.directional_accuracy']) {
      expect(cell('arima', metric)?.value, metric).toBeNull();
      expect(cell('random_walk', metric)?.value, metric).toBeNull();
    }
    // Drift forecasts a change there, so its cells are numbers: the n/a is the forecast's, not the unit's.
    expect(cell('drift', 'tycheon.directional_accuracy')?.value).toEqual(expect.any(Number));
  });
});

describe('the README split: drift over grid steps, σ̂ over a long enough window', () => {
  it("drift's slope spans as many steps as rwf's on the build's unbroken as-of history, hole or not", async () => {
    // rwf on the build's as-of history at the origin divides by its n − 1; the split serves that history
    // with a hole, and the scorer's slope (y_1 to y_o over grid steps: history_first_back − u) spans the same.
    const store = await HistoryStore.fromUniverse(universe, panel.seriesIds);
    // Timestamps served as of each origin: the training snapshot's and the inputs of this and earlier origins.
    const duck = await Duck.open({ threads: 2 });
    const served = new Map<string, number>();
    try {
      const file = (f: string) => quoteLiteral(join(split.abs, f));
      for (const r of await duck.all<{ series_id: string; origin: string; n: bigint }>(
        `WITH rows AS (
           SELECT series_id, "timestamp", NULL::TIMESTAMPTZ AS served_at FROM read_parquet(${file('train/observations.parquet')})
           UNION ALL
           SELECT series_id, "timestamp", origin AS served_at FROM read_parquet(${file('inputs.parquet')})
         )
         SELECT o.series_id, strftime(o.origin, '%Y-%m-%dT%H:%M:%S') AS origin, count(DISTINCT r."timestamp") AS n
         FROM read_parquet(${file('origins.parquet')}) AS o
         JOIN rows AS r ON r.series_id = o.series_id AND (r.served_at IS NULL OR r.served_at <= o.origin)
         GROUP BY ALL`,
      ))
        served.set(`${r.series_id}|${r.origin}`, Number(r.n));
    } finally {
      duck.close();
    }
    let holed = 0;
    for (let o = 0; o < panel.horizon.length; o++) {
      const id = panel.seriesIds[panel.originSeries[o]];
      const back = panel.historyTailBack[o]!;
      const span = panel.historyFirstBack[o] - back[back.length - 1];
      const asOf = store.historyAt(id, panel.originTime[o] * 1000);
      expect(span, `${id} @ ${panel.originIso[o]}`).toBe(asOf.length - 1);
      const n = served.get(`${id}|${new Date(panel.originTime[o]).toISOString().slice(0, 19)}`);
      expect(n, `${id} @ ${panel.originIso[o]}`).toBeDefined();
      if (n! - 1 < span) holed++;
    }
    // The T2 origins see the hole: counting served rows would have made their slopes too steep.
    expect(holed).toBeGreaterThan(0);
  });

  it("the random walk's σ̂ reads its frequency's window wherever the served history holds it", () => {
    const counts = new Map<string, number[]>();
    for (let o = 0; o < panel.horizon.length; o++) {
      const id = panel.seriesIds[panel.originSeries[o]];
      const f = frequency.get(id);
      if (f === undefined) continue;
      const want = RANDOM_WALK_SIGMA_RETURNS[f];
      const { returns } = randomWalkSigma(
        {
          tail: panel.historyTail[o],
          back: panel.historyTailBack[o],
          before: panel.historyBefore[o],
          beforeBack: panel.historyBeforeBack[o],
        },
        panel.horizon[o],
        (a, b) => b - a,
        want,
      );
      // Fewer only when the window reached y_1, the start of the served history.
      if (returns < want) {
        const backs = panel.historyBeforeBack[o] ?? panel.historyTailBack[o]!;
        expect(backs[0], `${id} @ ${panel.originIso[o]}: ${returns} returns`).toBe(panel.historyFirstBack[o]);
      }
      const list = counts.get(f) ?? [];
      list.push(returns);
      counts.set(f, list);
    }
    // Monthly and quarterly series are served from 2005: every origin has its whole window (the split's
    // lookback alone gives 11 and 3 returns).
    expect(Math.min(...counts.get('M')!)).toBe(RANDOM_WALK_SIGMA_RETURNS.M);
    expect(Math.min(...counts.get('Q')!)).toBe(RANDOM_WALK_SIGMA_RETURNS.Q);
  });
});
