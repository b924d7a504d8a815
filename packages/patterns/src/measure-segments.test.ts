import { Duck, pickUsedParams } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPanel } from './load-panel.ts';
import { measureSegments } from './measure-segments.ts';
import { buildSegmentSteps } from './run-segment-model.ts';
import { segmentParams } from './segment-options.ts';

// Segments of 20 weekdays and 12 months: small enough for odd cases, long enough for the size rule.
const PARAMS = segmentParams({ lengths: { BD: 20, D: 0, W: 0, M: 12, Q: 0, A: 0 }, sigma: 1.5 });
const DAY = 86_400_000_000;
const CLOSE = Date.parse('2000-01-03T21:00:00Z') * 1000; // a Monday close, weekday 0 of the grid

type Obs = { series_id: string; timestamp: number; available_at: number; value: number | null };

/** A deterministic wiggle: every series gets returns of both signs and a few large ones. */
const wiggle = (i: number, seed: number) => Math.sin(i * 1.7 + seed) * (i % 7 === 3 ? 0.08 : 0.01);

function weekdayPath(id: string, days: number, seed: number, level = 100): Obs[] {
  const out: Obs[] = [];
  let v = level;
  for (let d = 0; out.length < days; d++) {
    const t = CLOSE + d * DAY;
    const wd = new Date(t / 1000).getUTCDay();
    if (wd === 0 || wd === 6) continue;
    v *= 1 + wiggle(d, seed);
    out.push({ series_id: id, timestamp: t, available_at: t, value: v });
  }
  return out;
}

let duck: Duck;
beforeAll(async () => {
  duck = await Duck.open();
  const obs: Obs[] = [
    ...weekdayPath('a:plain', 130, 1),
    // Gaps, and a second observation of one weekday an hour later (the later one counts).
    ...weekdayPath('b:dupes', 130, 2).filter((_, i) => i % 11 !== 5),
    {
      series_id: 'b:dupes',
      timestamp: CLOSE + 7 * DAY + 3_600_000_000,
      available_at: CLOSE + 8 * DAY,
      value: 97,
    },
    {
      series_id: 'b:dupes',
      timestamp: CLOSE + 35 * DAY + 3_600_000_000,
      available_at: CLOSE + 36 * DAY,
      value: 103,
    },
    // Levels that cross zero: differences.
    ...weekdayPath('c:spread', 130, 3).map((o) => ({ ...o, value: (o.value ?? 0) - 100 })),
    // A weekend observation, off the BD grid.
    ...weekdayPath('d:weekend', 130, 4),
    { series_id: 'd:weekend', timestamp: CLOSE + 5 * DAY, available_at: CLOSE + 5 * DAY, value: 1 },
    // Revised: each month-end value published twice, the second vintage a little higher; one withdrawn.
    ...Array.from({ length: 40 }, (_, m) => {
      const t = Date.UTC(2000, m + 1, 0, 23) * 1000;
      const v = 50 + 10 * Math.sin(m);
      return [
        { series_id: 'e:monthly', timestamp: t, available_at: t + 10 * DAY, value: v },
        {
          series_id: 'e:monthly',
          timestamp: t,
          available_at: t + 40 * DAY,
          value: m === 17 ? null : v * 1.01,
        },
      ];
    }).flat(),
  ];
  const ids = [...new Set(obs.map((o) => o.series_id))];
  await loadPanel(
    duck,
    ids.map((series_id) => ({
      series_id,
      frequency: series_id.startsWith('e:') ? 'M' : 'BD',
      detail_category: 'X',
      title: series_id,
    })),
    obs,
  );
  await buildSegmentSteps(duck, PARAMS);
}, 60_000);
afterAll(() => duck?.close());

describe('measureSegments', () => {
  it("computes segment_steps.sql's tallies, moments and outliers, inline and on workers", async () => {
    // What segment_counts and segment_outliers computed from segment_steps in SQL before decision 0035.
    const tallies = `SELECT series_key, segment, count(*) AS n_steps, count(ret) AS n_returns,
        count(*) FILTER (WHERE ret > 0) AS n_positive, min(value) AS min_value,
        epoch_us(min("timestamp")) AS first_us, epoch_us(max("timestamp")) AS last_us
      FROM segment_steps GROUP BY ALL ORDER BY ALL`;
    const moments = `SELECT series_key, segment, avg(ret ORDER BY step) AS ret_mean, stddev_samp(ret ORDER BY step) AS ret_std
      FROM segment_steps WHERE ret IS NOT NULL GROUP BY ALL`;
    const expectedTallies = await duck.all(tallies);
    const keys = new Set(expectedTallies.map((t) => `${t.series_key}`));
    expect(keys.size).toBe(5);
    // The segments segment_counts keeps (the size rule): only they get moments and outliers.
    const counted = `SELECT series_key, segment FROM (${tallies}) AS t
      JOIN (SELECT CAST(row_number() OVER (ORDER BY series_id) AS INTEGER) AS series_key, frequency FROM series) USING (series_key)
      WHERE n_steps >= $min_coverage * CASE frequency WHEN 'BD' THEN $len_bd ELSE $len_m END AND n_returns >= $min_returns`;
    const expectedMoments = await duck.all(
      `SELECT m.* FROM (${moments}) AS m JOIN (${counted}) USING (series_key, segment) ORDER BY ALL`,
      pickUsedParams(counted, PARAMS),
    );
    expect(expectedMoments.length).toBeGreaterThan(10);
    const expectedOutliers = await duck.all(
      `SELECT s.series_key, s.segment, s.step, abs(s.ret - m.ret_mean) / m.ret_std AS z_abs
       FROM segment_steps AS s JOIN (${moments}) AS m USING (series_key, segment)
       JOIN (${counted}) USING (series_key, segment)
       WHERE m.ret_std > 0 AND abs(s.ret - m.ret_mean) > $sigma * m.ret_std ORDER BY ALL`,
      pickUsedParams(`${counted} $sigma`, PARAMS),
    );
    expect(expectedOutliers.length).toBeGreaterThan(5);
    for (const workers of [0, 2]) {
      const n = await measureSegments(duck, PARAMS, workers);
      expect(n, `${workers} workers`).toBe(expectedMoments.length);
      const got = await duck.all(
        `SELECT series_key, segment, CAST(n_steps AS BIGINT) AS n_steps, CAST(n_returns AS BIGINT) AS n_returns,
           CAST(n_positive AS BIGINT) AS n_positive, min_value, CAST(first_us AS BIGINT) AS first_us,
           CAST(last_us AS BIGINT) AS last_us
         FROM segment_tallies ORDER BY ALL`,
      );
      expect(got, `${workers} workers`).toEqual(expectedTallies);
      expect(
        await duck.all(
          'SELECT series_key, segment, ret_mean, ret_std FROM segment_characteristics ORDER BY ALL',
        ),
      ).toEqual(expectedMoments);
      expect(await duck.all('SELECT * FROM segment_outliers ORDER BY ALL')).toEqual(expectedOutliers);
    }
  }, 60_000);
});
