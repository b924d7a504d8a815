import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { makeBaselineForecasts } from './make-baseline-forecasts.ts';
import { gaussian, makeRandomWalkPanel, mulberry32 } from './make-random-walk-panel.ts';
import { renderLeaderboard } from './render-leaderboard.ts';
import { ScoringResults } from './results-schema.ts';
import { scorePanel } from './score-panel.ts';
import type { ForecastRow } from './score-types.ts';

function oracleRows(
  data: ReturnType<typeof makeRandomWalkPanel>,
  model: string,
  noise: number,
  seed: number,
) {
  const normal = gaussian(mulberry32(seed));
  return data.targets.map(
    (t): ForecastRow => ({
      model,
      series_id: t.series_id,
      origin: t.origin,
      step: t.step,
      value: t.value + noise * normal(),
    }),
  );
}

describe('scorePanel on a driftless random-walk panel', () => {
  const data = makeRandomWalkPanel({ seed: 7, units: 2, seriesPerUnit: 5, originsPerSeries: 30, tail: 260 });
  const panel = buildEvaluationPanel(data.origins, data.targets);
  const oracle = alignForecasts(panel, forecastRowsToTable(oracleRows(data, 'oracle', 0.01, 1)));
  // An honest but useless model: the random walk plus independent noise.
  const normal = gaussian(mulberry32(3));
  const noisy = alignForecasts(
    panel,
    forecastRowsToTable(
      data.origins.flatMap((o) =>
        Array.from(
          { length: o.horizon },
          (_, k): ForecastRow => ({
            model: 'noisy',
            series_id: o.series_id,
            origin: o.origin,
            step: k + 1,
            value: o.last_value + 0.2 * normal(),
          }),
        ),
      ),
    ),
  );
  const results = scorePanel({ tasks: data.tasks, panel, models: [...oracle, ...noisy] });
  const pooled = (model: string) => results.verdicts.rows.find((r) => r.model === model && r.unit === '*')!;

  it('validates against the results schema', () => {
    expect(ScoringResults.safeParse(results).success).toBe(true);
    expect(results.origins.overlapping).toBe(false);
    expect(results.verdicts.status).toBe('ok');
  });

  it('scores the random walk although nobody submitted it, plus drift, seasonal naive, ARIMA and GARCH', () => {
    expect(results.models.map((m) => m.model)).toEqual([
      'random_walk',
      'drift',
      'seasonal_naive',
      'arima',
      'garch',
      'oracle',
      'noisy',
    ]);
    expect(results.config.baselines).toEqual(['random_walk', 'drift', 'seasonal_naive', 'arima', 'garch']);
    expect(results.config.refit_every).toBe(10);
    // The fitted baselines carry quantiles: CRPS on the grid (flagged *), coverage, and QLIKE from their
    // own Gaussian variance (exact).
    for (const model of ['arima', 'garch']) {
      expect(results.models.find((m) => m.model === model)!.crps_kind).toBe('quantiles');
      const metrics = new Set(results.values.filter((v) => v.model === model).map((v) => v.metric));
      for (const m of ['tycheon.crps*', 'tycheon.coverage_90', 'tycheon.width_50', 'tycheon.qlike'])
        expect(metrics.has(m), `${model} ${m}`).toBe(true);
      expect(metrics.has('tycheon.qlike*')).toBe(false);
    }
  });

  it('no baseline beats the random walk, on any of several driftless panels', () => {
    // Estimating a zero drift (or ARMA terms) only adds variance, so drift and ARIMA may honestly come out
    // 'worse'; none may 'beat'. Seasonal naive with m = H = 5 forecasts y_o at the horizon end: identical
    // losses, so no test. GARCH's median is y_o: no squared-error test, so it cannot beat either.
    for (const seed of [7, 8, 9, 10, 11]) {
      const d = makeRandomWalkPanel({ seed, units: 2, seriesPerUnit: 5, originsPerSeries: 30, tail: 60 });
      const r = scorePanel({ tasks: d.tasks, panel: buildEvaluationPanel(d.origins, d.targets), models: [] });
      const verdicts = r.verdicts.rows.filter((v) => v.unit === '*');
      expect(verdicts.map((v) => v.model)).toEqual(['drift', 'seasonal_naive', 'arima', 'garch']);
      for (const v of r.verdicts.rows) expect(['indistinguishable', 'worse']).toContain(v.verdict);
      const seasonal = verdicts.find((v) => v.model === 'seasonal_naive')!;
      expect(seasonal.verdict).toBe('indistinguishable');
      expect(seasonal.note).toMatch(/no variance above rounding level/);
      const garch = verdicts.find((v) => v.model === 'garch')!;
      expect(garch.squared_error!.statistic).toBeNull();
      expect(garch.crps!.statistic).not.toBeNull();
      expect(garch.crps_kind).toBe('quantiles');
      // ARIMA differs from the random walk where it picks ARMA terms or a drift.
      expect(verdicts.find((v) => v.model === 'arima')!.squared_error!.statistic).not.toBeNull();
    }
    expect(pooled('noisy').verdict).not.toBe('beats');
  }, 60_000);

  it('flags the oracle (true targets plus tiny noise) as beating the random walk, pooled and per unit', () => {
    const rows = results.verdicts.rows.filter((r) => r.model === 'oracle');
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.verdict).toBe('beats');
      expect(r.squared_error!.p_model_better).toBeLessThan(0.05);
      expect(r.crps!.p_model_better).toBeLessThan(0.05);
    }
  });

  it('ranks the oracle first overall and on the point-wise aspect', () => {
    const first = results.ranks.overall.models[0];
    expect(first.model).toBe('oracle');
    expect(first.aspect_rank['Point-wise']).toBe(1);
    expect(Object.keys(results.ranks.by_category).sort()).toEqual(['Cat0', 'Cat1']);
    expect(results.ranks.by_frequency.BD.models[0].model).toBe('oracle');
  });

  it('computes FinVerse HR per unit as the mean of per-series hit rates', () => {
    const hr = results.values.find(
      (v) => v.model === 'oracle' && v.metric === 'HR(1w,1w)' && v.unit.includes('Cat0'),
    )!;
    expect(hr.series).toBe(5);
    expect(hr.value!).toBeGreaterThan(0.95);
    // The random walk predicts r̂ = 0, whose sign matches no non-zero realised change: HR = ΔHR = Δ²HR = 0.
    for (const m of ['HR(1w,1w)', 'DHR(1w,1w)', 'D2HR(1w,1w)'])
      for (const v of results.values.filter((x) => x.model === 'random_walk' && x.metric === m))
        expect(v.value).toBe(0);
    const oracleD2 = results.values.find((v) => v.model === 'oracle' && v.metric === 'D2HR(1w,1w)')!;
    expect(oracleD2.value!).toBeGreaterThan(0.9);
    const rwMaseRel = results.values.find(
      (v) => v.model === 'random_walk' && v.metric === 'MASE_rel(1w,1w)',
    )!;
    // The random walk's r̂ is 0: MASE_rel = Σ|r| / Σ|r| = 1 exactly.
    expect(rwMaseRel.value).toBeCloseTo(1, 12);
    const rwMaseOri = results.values.find((v) => v.model === 'random_walk' && v.metric === 'MASE_ori')!;
    expect(rwMaseOri.value).toBeCloseTo(1, 12);
  });

  it('runs the FinTSB signal metrics and TopK / TopK-Drop backtests per unit', () => {
    const v = (model: string, metric: string, unit: string) =>
      results.values.find((x) => x.model === model && x.metric === metric && x.unit === unit)!.value!;
    for (const unit of new Set(results.values.map((x) => x.unit))) {
      expect(v('oracle', 'fintsb.rank_ic', unit)).toBeGreaterThan(0.9);
      expect(v('oracle', 'fintsb.topk_arr', unit)).toBeGreaterThan(v('random_walk', 'fintsb.topk_arr', unit));
      expect(v('oracle', 'fintsb.topk_drop_asr', unit)).toBeGreaterThan(
        v('random_walk', 'fintsb.topk_drop_asr', unit),
      );
    }
  });

  it('lists where the baselines win, and the leaderboard ends with that list', () => {
    // The oracle leads every headline cell it can; baselines only lead where the oracle cannot differ (none here).
    for (const w of results.baselines_win)
      expect(
        w.leaders.every((l) => ['random_walk', 'drift', 'seasonal_naive', 'arima', 'garch'].includes(l)),
      ).toBe(true);
    const md = renderLeaderboard(results);
    const tail = md.slice(md.indexOf('## Where the baselines win'));
    expect(tail).toMatch(/1 of 2 submitted model\(s\) beat the random walk/);
    expect(md.trimEnd().endsWith(tail.trimEnd())).toBe(true);
  });

  it('refuses DM verdicts for policy all with H > 1, unless overlap is allowed', () => {
    const refused = scorePanel({
      tasks: data.tasks,
      panel,
      models: oracle,
      options: { originsPolicy: 'all', baselines: ['drift'] },
    });
    expect(refused.verdicts.status).toBe('refused');
    expect(refused.verdicts.reason).toMatch(/--allow-overlap/);
    expect(refused.verdicts.rows).toEqual([]);
    const allowed = scorePanel({
      tasks: data.tasks,
      panel,
      models: oracle,
      options: { originsPolicy: 'all', allowOverlap: true, baselines: ['drift'] },
    });
    expect(allowed.verdicts.status).toBe('ok');
    expect(
      allowed.verdicts.rows.find((r) => r.model === 'oracle' && r.unit === '*')!.squared_error!.horizon,
    ).toBe(5);
    expect(allowed.config_sha256).not.toBe(refused.config_sha256);
  });

  it('without a policy, checks the origins: closer than H steps apart is overlapping', () => {
    const close = makeRandomWalkPanel({
      seed: 1,
      units: 1,
      seriesPerUnit: 2,
      originsPerSeries: 10,
      spacing: 2,
    });
    const p = buildEvaluationPanel(close.origins, close.targets);
    const r = scorePanel({ tasks: close.tasks, panel: p, models: [] });
    expect(r.origins.overlapping).toBe(true);
    expect(r.verdicts.status).toBe('refused');
    expect(r.verdicts.reason).toMatch(/2 BD step\(s\) apart, less than the horizon 5/);
  });
});

describe('scorePanel task coverage', () => {
  it('warns about series without tasks and tasks without origins, and scores only tasked series', () => {
    const d = makeRandomWalkPanel({ seed: 2, units: 1, seriesPerUnit: 3, originsPerSeries: 8 });
    const tasks = d.tasks.filter((t) => t.series_id !== 'u0s2');
    tasks.push({ ...tasks[0], series_id: 'ghost' });
    const r = scorePanel({ tasks, panel: buildEvaluationPanel(d.origins, d.targets), models: [] });
    expect(r.warnings).toEqual([
      { code: 'TASKS_WITHOUT_ORIGINS', message: expect.any(String), count: 1 },
      { code: 'SERIES_WITHOUT_TASKS', message: expect.any(String), count: 1 },
    ]);
    const hr = r.values.find((v) => v.model === 'random_walk' && v.metric === 'HR(1w,1w)')!;
    expect(hr.series).toBe(2);
  });
});

describe('scorePanel with probabilistic forecasts', () => {
  const data = makeRandomWalkPanel({ seed: 11, units: 1, seriesPerUnit: 4, originsPerSeries: 25, tail: 60 });
  const panel = buildEvaluationPanel(data.origins, data.targets);
  const normal = gaussian(mulberry32(5));
  const levels = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95];
  const z = [-1.6449, -1.2816, -0.6745, 0, 0.6745, 1.2816, 1.6449];
  const rows: ForecastRow[] = [];
  const sampleRows: ForecastRow[] = [];
  for (const o of data.origins) {
    for (let k = 1; k <= o.horizon; k++) {
      const sd = Math.sqrt(k);
      const quantiles = Object.fromEntries(levels.map((l, i) => [`q${l}`, o.last_value + sd * z[i]]));
      rows.push({
        model: 'gauss_q',
        series_id: o.series_id,
        origin: o.origin,
        step: k,
        value: o.last_value,
        quantiles,
      });
      sampleRows.push({
        model: 'gauss_s',
        series_id: o.series_id,
        origin: o.origin,
        step: k,
        value: o.last_value,
        samples: Array.from({ length: 50 }, () => o.last_value + sd * normal()),
      });
    }
  }
  const q = alignForecasts(panel, forecastRowsToTable(rows));
  const s = alignForecasts(panel, forecastRowsToTable(sampleRows));
  const results = scorePanel({ tasks: data.tasks, panel, models: [...q, ...s] });

  it('flags quantile CRPS as approximate under its own metric name and never mixes it with exact CRPS', () => {
    const row = results.verdicts.rows.find((r) => r.model === 'gauss_q' && r.unit === '*')!;
    expect(row.crps_kind).toBe('quantiles');
    expect(row.crps_approximate).toBe(true);
    const names = new Set(results.values.filter((v) => v.model === 'gauss_q').map((v) => v.metric));
    expect(names.has('tycheon.crps*')).toBe(true);
    expect(names.has('tycheon.crps')).toBe(false);
    const sRow = results.verdicts.rows.find((r) => r.model === 'gauss_s' && r.unit === '*')!;
    expect(sRow.crps_approximate).toBe(false);
    // A well-specified random-walk distribution is the random walk: it cannot beat it.
    expect(row.verdict).not.toBe('beats');
    expect(sRow.verdict).not.toBe('beats');
  });

  it('reports interval coverage near nominal for a calibrated Gaussian', () => {
    const cov = results.values.find((v) => v.model === 'gauss_q' && v.metric === 'tycheon.coverage_80')!;
    expect(cov.value!).toBeGreaterThan(0.6);
    expect(cov.value!).toBeLessThan(0.95);
    expect(results.values.some((v) => v.model === 'gauss_s' && v.metric === 'tycheon.width_90')).toBe(true);
  });

  it('computes QLIKE for distributions only, flagging the quantile-implied variance', () => {
    const metrics = (model: string) => results.values.filter((v) => v.model === model).map((v) => v.metric);
    expect(metrics('gauss_s')).toContain('tycheon.qlike');
    expect(metrics('gauss_q')).toContain('tycheon.qlike*');
    expect(metrics('random_walk')).toContain('tycheon.qlike');
    expect(metrics('drift').some((m) => m.startsWith('tycheon.qlike'))).toBe(false);
    const q = results.values.find((v) => v.model === 'gauss_s' && v.metric === 'tycheon.qlike')!;
    expect(q.value!).toBeGreaterThan(0);
  });
});

describe('scorePanel with submitted baselines (asof baselines output)', () => {
  const d = makeRandomWalkPanel({ seed: 4, units: 1, seriesPerUnit: 3, originsPerSeries: 8 });
  const panel = buildEvaluationPanel(d.origins, d.targets);
  const own = makeBaselineForecasts(d.origins, () => d.tasks[0].frequency);

  it('accepts forecasts equal to its own baselines and scores each baseline once', () => {
    const models = alignForecasts(panel, forecastRowsToTable(own));
    expect(models.map((m) => [m.model, m.baseline])).toEqual([
      ['random_walk', true],
      ['drift', true],
      ['seasonal_naive', true],
      ['arima', true],
      ['garch', true],
    ]);
    const r = scorePanel({ tasks: d.tasks, panel, models });
    expect(r.models.map((m) => m.model)).toEqual([
      'random_walk',
      'drift',
      'seasonal_naive',
      'arima',
      'garch',
    ]);
    expect(r.warnings).toContainEqual({
      code: 'SUBMITTED_BASELINES_MATCH',
      message: expect.any(String),
      count: 5,
    });
  });

  it('refuses a baseline-named model that differs from its own, naming the point', () => {
    const changed = own.map((row, i) =>
      i === 3 && row.model === 'random_walk' ? { ...row, value: row.value + 1 } : row,
    );
    const models = alignForecasts(panel, forecastRowsToTable(changed));
    expect(() => scorePanel({ tasks: d.tasks, panel, models })).toThrow(
      /model 'random_walk' at u0s0 @ \S+ step 4: submitted [\d.]+, the scorer's own random_walk baseline gives/,
    );
  });
});

describe('scorePanel with submitted fitted baselines (quantiles compared too)', () => {
  const d = makeRandomWalkPanel({ seed: 4, units: 1, seriesPerUnit: 3, originsPerSeries: 8 });
  const panel = buildEvaluationPanel(d.origins, d.targets);
  const own = makeBaselineForecasts(d.origins, () => 'BD', ['arima', 'garch']);

  it('refuses an arima whose quantile differs, naming the column', () => {
    const changed = own.map((row, i) =>
      i === 7 ? { ...row, quantiles: { ...row.quantiles, 'q0.9': row.quantiles!['q0.9'] * 1.001 } } : row,
    );
    expect(changed[7].model).toBe('arima');
    expect(() =>
      scorePanel({ tasks: d.tasks, panel, models: alignForecasts(panel, forecastRowsToTable(changed)) }),
    ).toThrow(
      /model 'arima' at u0s0 @ \S+ step 3: submitted q0.9 [\d.]+, the scorer's own arima baseline gives [\d.]+ \(its parameters are re-estimated every 10 origins/,
    );
  });

  it('refuses a garch without its quantile columns, and one fitted with another refit schedule', () => {
    const score = (rows: ForecastRow[], options: Parameters<typeof scorePanel>[0]['options']) =>
      scorePanel({
        tasks: d.tasks,
        panel,
        models: alignForecasts(panel, forecastRowsToTable(rows)),
        options,
      });
    const pointOnly = own.filter((r) => r.model === 'garch').map(({ quantiles: _, ...r }) => r);
    expect(() => score(pointOnly, { baselines: ['garch'] })).toThrow(
      /model 'garch' at its quantile columns: submitted none instead of q0.05, q0.1/,
    );
    const everyOrigin = makeBaselineForecasts(d.origins, () => 'BD', ['arima'], { refitEvery: 1 });
    expect(() => score(everyOrigin, { baselines: ['arima'] })).toThrow(
      /model 'arima' at u0s\d @ \S+ step \d: submitted .*every 10 origins: give asof baselines and asof score the same --refit-every/,
    );
    // With the same schedule the scorer agrees.
    const r = score(everyOrigin, { baselines: ['arima'], refitEvery: 1 });
    expect(r.config.refit_every).toBe(1);
    expect(r.models.map((m) => m.model)).toEqual(['random_walk', 'arima']);
  }, 30_000);
});

describe('scorePanel with a model equal to the random walk up to rounding (issue 18.7)', () => {
  it('reports no DM test (n/a), not a statistic computed from rounding noise', () => {
    const data = makeRandomWalkPanel({
      seed: 21,
      units: 2,
      seriesPerUnit: 5,
      originsPerSeries: 30,
      tail: 60,
    });
    const panel = buildEvaluationPanel(data.origins, data.targets);
    // exp(ln y) is y up to the last bit: the horizon-end log return is ~1e-16 instead of 0.
    const copy = data.origins.flatMap((o) =>
      Array.from(
        { length: o.horizon },
        (_, k): ForecastRow => ({
          model: 'rw_copy',
          series_id: o.series_id,
          origin: o.origin,
          step: k + 1,
          value: Math.exp(Math.log(o.last_value)),
        }),
      ),
    );
    expect(copy.some((r, i) => r.value !== data.origins[Math.floor(i / 5)].last_value)).toBe(true);
    const results = scorePanel({
      tasks: data.tasks,
      panel,
      models: alignForecasts(panel, forecastRowsToTable(copy)),
      options: { baselines: [] },
    });
    const rows = results.verdicts.rows.filter((r) => r.model === 'rw_copy');
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      expect(r.squared_error!.statistic).toBeNull();
      expect(r.squared_error!.p_model_better).toBeNull();
      expect(r.verdict).toBe('indistinguishable');
      expect(r.note).toMatch(/squared error.*no variance above rounding level/);
    }
  });
});

describe('a metric that overflows on the split’s own values (issue 52 item 5, audit 8.6d)', () => {
  it('fails with SCORE_OVERFLOW naming the split and what to do, not the metric’s internal argument', () => {
    // One series reaches ≤ 0 (scaled change) and has y_o = 1e-300 at some origins: its returns are ~1e302,
    // their squares Infinity. Forecasts are bounded where they are read; the split's values are not.
    const data = makeRandomWalkPanel({ seed: 7, units: 1, seriesPerUnit: 3, originsPerSeries: 30, tail: 60 });
    const s0 = data.origins[0].series_id;
    const origins = data.origins.map((o, i) =>
      o.series_id === s0 && i % 5 === 0
        ? { ...o, last_value: 1e-300, history_tail: o.history_tail?.map((v, k) => (k === 0 ? -v : v)) }
        : o,
    );
    const panel = buildEvaluationPanel(origins, data.targets);
    let err: unknown;
    try {
      scorePanel({ tasks: data.tasks, panel, models: [], where: 'split/manifest.json' });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'SCORE_OVERFLOW', exitCode: 1 });
    const message = (err as Error).message;
    expect(message).toMatch(/^split\/manifest\.json: scoring overflowed a double \(\w+ met -?Infinity\)/);
    expect(message).toMatch(/values too close to 0 beside large ones/);
    expect(message).not.toMatch(/drop that origin|'\w+'\[\d+\]/);
  });
});
