import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aggregateSplit } from './aggregate-split.ts';
import { aggregateUniverse, LAG_BINS } from './aggregate-universe.ts';
import { aggregateVintages } from './aggregate-vintages.ts';
import { revisionPoints, revisionSpec } from './vintage-charts.ts';

// Given/expect tests of the report's SQL models on hand-made in_* tables (what openReportInputs loads).
let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open({ threads: 1 });
});
afterEach(() => duck.close());

const DAY = 86_400_000;
const Q_END = ['2020-03-31', '2020-06-30', '2020-09-30', '2020-12-31'].map((d) =>
  Date.parse(`${d}T23:59:59Z`),
);

async function universe() {
  await duck.run(`CREATE TABLE in_series (series_id VARCHAR, source VARCHAR, title VARCHAR, scope VARCHAR, category VARCHAR,
    detail_category VARCHAR, frequency VARCHAR, universe_kind VARCHAR, is_synthetic BOOLEAN, eval_target BOOLEAN,
    first_timestamp TIMESTAMPTZ, last_timestamp TIMESTAMPTZ, n_obs BIGINT, n_revisions BIGINT)`);
  await duck.run(`CREATE TABLE in_observations (series_id VARCHAR, "timestamp" TIMESTAMPTZ, available_at TIMESTAMPTZ,
    value DOUBLE, available_at_basis VARCHAR)`);
  const obs = async (id: string, t: number, a: number, v: number | null, basis: string) =>
    duck.run(
      'INSERT INTO in_observations VALUES ($id, make_timestamptz($t * 1000), make_timestamptz($a * 1000), $v, $b)',
      {
        id,
        t,
        a,
        v,
        b: basis,
      },
    );
  // gdp: four quarters released 30 days after quarter end; Q1 revised twice (100 → 110 → 120), Q2 withdrawn.
  for (const [k, t] of Q_END.entries()) await obs('gdp', t, t + 30 * DAY, 100 + k, 'vintage');
  await obs('gdp', Q_END[0], Q_END[0] + 90 * DAY, 110, 'vintage');
  await obs('gdp', Q_END[0], Q_END[0] + 200 * DAY, 120, 'vintage');
  await obs('gdp', Q_END[1], Q_END[1] + 100 * DAY, null, 'vintage');
  // px: two bars public at their own close (lag 0), never revised.
  await obs('px', Q_END[0], Q_END[0], 50, 'bar_close');
  await obs('px', Q_END[1], Q_END[1], 51, 'bar_close');
  await duck.run(`INSERT INTO in_series VALUES
    ('gdp', 'fred', 'GDP', 'Country', 'Macro', 'Gdp', 'Q', 'point_in_time', false, true,
      '2020-03-31T23:59:59Z', '2020-12-31T23:59:59Z', 4, 3),
    ('px', 'synthetic', 'PX', 'Individual', 'Equity', 'Close', 'BD', 'static', true, false,
      '2020-03-31T23:59:59Z', '2020-06-30T23:59:59Z', 2, 0)`);
  await duck.run(`CREATE TABLE in_tasks AS SELECT 'gdp' AS series_id FROM range(5)`);
}

describe('universe aggregates', () => {
  it('count coverage, lags, vintages, revision sizes and warnings from the rows', async () => {
    await universe();
    const a = await aggregateUniverse(duck);
    expect(a.coverage).toEqual([
      {
        scope: 'Country',
        category: 'Macro',
        detail_category: 'Gdp',
        frequency: 'Q',
        series: 1,
        observations: 7,
        eval_targets: 1,
        tasks: 5,
      },
      {
        scope: 'Individual',
        category: 'Equity',
        detail_category: 'Close',
        frequency: 'BD',
        series: 1,
        observations: 2,
        eval_targets: 0,
        tasks: 0,
      },
    ]);
    // First releases only: gdp's four at 30 days (bin 30–60 d), px's two at 0 (bin 0–1 d).
    expect(a.lagBins.map((b) => [b.source, LAG_BINS[b.bin], b.releases, b.share])).toEqual([
      ['fred', '30–60 d', 4, 1],
      ['synthetic', '0–1 d', 2, 1],
    ]);
    expect(a.lagQuantiles.find((q) => q.source === 'fred')?.q_s[3]).toBe(30 * 86400);
    expect(a.vintageCounts).toEqual([
      { source: 'fred', vintages: 1, periods: 2 },
      { source: 'fred', vintages: 2, periods: 1 },
      { source: 'fred', vintages: 3, periods: 1 },
      { source: 'synthetic', vintages: 1, periods: 2 },
    ]);
    // Q1 moved 100 → 120 (+20 %, the ≥ 20 % bin); Q2's latest row is a withdrawal: left out.
    expect(a.revisionBins).toEqual([{ source: 'fred', bin: 5, periods: 1 }]);
    expect(a.topRevised).toMatchObject([
      { series_id: 'gdp', revised_periods: 1, revisions: 2, median_move: 0.2 },
    ]);
    expect(a.warnings).toMatchObject({
      static_series: 1,
      synthetic_series: 1,
      withdrawals: 1,
      withdrawn_series: 1,
    });
    expect(
      a.activeSeries
        .filter((r) => r.category === 'Macro')
        .map((r) => new Date(r.month).toISOString().slice(0, 7)),
    ).toEqual([
      '2020-03',
      '2020-04',
      '2020-05',
      '2020-06',
      '2020-07',
      '2020-08',
      '2020-09',
      '2020-10',
      '2020-11',
      '2020-12',
    ]);
    expect(a.hasSegments).toBe(false);
  });

  it('lists the static series a later download restated (vendor restatements)', async () => {
    await universe();
    // stq: two bars of a vendor file; a later download changed the first (50 → 40), kept the second.
    const obs = (t: number, a: number, v: number) =>
      duck.run(
        "INSERT INTO in_observations VALUES ('stq', make_timestamptz($t * 1000), make_timestamptz($a * 1000), $v, 'vintage')",
        { t, a, v },
      );
    await obs(Q_END[0], Q_END[0] + DAY, 50);
    await obs(Q_END[1], Q_END[1] + DAY, 51);
    await obs(Q_END[0], Q_END[1] + 10 * DAY, 40);
    await duck.run(`INSERT INTO in_series VALUES ('stq', 'stooq', 'STQ', 'Individual', 'Equity', 'Close', 'BD', 'static',
      false, false, '2020-03-31T23:59:59Z', '2020-06-30T23:59:59Z', 2, 1)`);
    const a = await aggregateUniverse(duck);
    // gdp has revisions too, but from vintages (point in time): not a restatement.
    expect(a.restated).toEqual([
      {
        series_id: 'stq',
        source: 'stooq',
        title: 'STQ',
        frequency: 'BD',
        restated_values: 1,
        downloads: 1,
        first_period: Q_END[0],
        last_period: Q_END[0],
        median_move: 0.2,
        max_move: 0.2,
      },
    ]);
  });

  it('draws the vintage view: first release, latest and as-of paths, withdrawals left out', async () => {
    await universe();
    const asOf = new Date(Q_END[0] + 130 * DAY).toISOString();
    const v = await aggregateVintages(duck, 'gdp', [asOf]);
    expect(v.paths.map((p) => [p.vintages, p.first_value, p.latest_value])).toEqual([
      [3, 100, 120],
      [2, 101, null],
      [1, 102, 102],
      [1, 103, 103],
    ]);
    // As of Q1 + 130 days: Q1 at its first revision (110), Q2 at its first release (101, withdrawn later), Q3 not out.
    expect(v.asOf[0].path.map((p) => p.value)).toEqual([110, 101]);
    // The revision view: each revised period's change from first release to latest (withdrawn ones aside).
    expect(revisionPoints(v).map((p) => [p.first, p.latest, p.change_pct])).toEqual([[100, 120, 20]]);
    const spec = revisionSpec(v) as { encoding: { y: { field: string } } };
    expect(spec.encoding.y.field).toBe('change_pct');
    expect(revisionSpec({ ...v, paths: v.paths.filter((p) => p.vintages === 1) })).toBeNull();
    const byDefault = await aggregateVintages(duck, 'gdp', []);
    expect(byDefault.asOf.length).toBeGreaterThan(0);
    await expect(aggregateVintages(duck, 'GDP2', [])).rejects.toThrow(
      /--series GDP2: no such series in this universe; did you mean gdp\b/,
    );
  });
});

describe('split aggregates', () => {
  it('count origins per window and pending targets', async () => {
    await duck.run(`CREATE TABLE in_origins AS SELECT * FROM (VALUES
      ('a', 'M', '2021-01-31T23:59:59Z'::TIMESTAMPTZ, 3, 3, '2021-05-15T00:00:00Z'::TIMESTAMPTZ, 'T1'),
      ('a', 'M', '2021-04-30T23:59:59Z'::TIMESTAMPTZ, 3, 1, NULL, 'T3'),
      ('b', 'M', '2021-04-30T23:59:59Z'::TIMESTAMPTZ, 3, 3, '2021-08-15T00:00:00Z'::TIMESTAMPTZ, 'T2'))
      AS t(series_id, frequency, origin, horizon_steps, n_target_steps_known, target_known_at, "window")`);
    const s = await aggregateSplit(duck);
    expect(s.windows.map((w) => [w.window, w.origins, w.pending_origins, w.pending_steps])).toEqual([
      ['T1', 1, 0, 0],
      ['T2', 1, 0, 0],
      ['T3', 1, 1, 2],
    ]);
    expect(s.originMonths.reduce((n, r) => n + r.pending, 0)).toBe(1);
    expect(s.trainMonths).toEqual([]);
  });
});
