import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BASE_PARAMS, day, isoDay, loadSplitFixture, runSplitModels } from './split-fixture.ts';
import { splitModels } from './split-models.ts';

// eval_observations reads only the steps from first_index on (eval_observations.sql): these tests compare
// every table the split serves with the ones an unrestricted eval_observations gives, on a series whose
// history reaches far before eval_start (day 30) and holds a late release, a revision and an old withdrawal.
// Series 'a' (frequency Q, horizon 2, lookback 2): steps every 10 days from day −200 to day 100, each
// published the next day, except day −50 (published day 35, after eval_start); day −150 revised on day
// 25; day −120 withdrawn on day 40 (after the train cutoff, day 20) and published again on day 70.
const given: [number, number, number | null][] = [];
for (let t = -200; t <= 100; t += 10) given.push([t, t === -50 ? 35 : t + 1, t / 10]);
given.push([-150, 25, -14.5], [-120, 40, null], [-120, 70, -11.5]);

/** eval_observations as it was before the bound: every row of the evaluation-target series. */
const UNRESTRICTED = `
  SELECT s.*, g.step_index, g.n_vintages
  FROM (
    SELECT k.series_key, o."timestamp", o.period_start, o.available_at, o.value, o.available_at_basis, o.source_ref
    FROM split_observations AS o JOIN series_keys AS k USING (series_id) WHERE k.eval_target
  ) AS s
  JOIN series_grid AS g USING (series_key, "timestamp")`;

const SERVED = {
  per_origin: ['inputs', 'targets', 'origins', 'withdrawals', 'input_windows'],
  compact: ['input_rows', 'target_rows', 'origins', 'withdrawals', 'input_windows'],
} as const;

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open({ threads: 1 });
  await loadSplitFixture(duck, 'a', given, { nRevisions: 3, nObs: 0 });
});
afterEach(() => duck.close());

/** Every row of each table, in a stable order, as JSON (bigint and DuckDB time values included). */
const snapshot = async (tables: readonly string[]) => {
  const out: Record<string, string[]> = {};
  for (const t of tables) {
    const rows = await duck.all(`SELECT * FROM ${t} ORDER BY ALL`);
    out[t] = rows.map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
  }
  return out;
};

describe('eval_observations reads from the first step a window or target can reach', () => {
  for (const layout of ['per_origin', 'compact'] as const) {
    it(`serves the same ${layout} tables as an unrestricted eval_observations`, async () => {
      const models = splitModels(layout);
      await runSplitModels(duck, BASE_PARAMS, models);
      const bounded = await snapshot(SERVED[layout]);
      const first = await duck.one<{ t: string; n: bigint }>(
        `SELECT strftime(min("timestamp"), '%Y-%m-%d') AS t, count(*) AS n FROM eval_observations`,
      );
      // first_eval_index 24 (day 30) − lookback 2 − 9 steps released after eval_start (days 30…100 and −50)
      // − 3 vintages beyond the first + 1 = step 11, day −100: days −200…−110 are not read (10 first
      // releases, the revision of day −150, the withdrawal of day −120 and its restoration: 13 rows).
      expect(first.t).toBe(isoDay(-100));
      expect(Number(first.n)).toBe(given.length - 13);
      // The withdrawal of day −120 lies before that step and is still served (withdrawn_vintages).
      const w = await duck.all<{ t: string }>(
        `SELECT strftime("timestamp", '%Y-%m-%d') AS t FROM withdrawals`,
      );
      expect(w).toEqual([{ t: isoDay(-120) }]);

      await duck.run(`CREATE OR REPLACE TABLE eval_observations AS ${UNRESTRICTED}`);
      const all = await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM eval_observations');
      expect(Number(all.n)).toBe(given.length);
      await runSplitModels(duck, BASE_PARAMS, models.slice(models.indexOf('eval_observations') + 1));
      const unbounded = await snapshot(SERVED[layout]);
      expect(bounded).toEqual(unbounded);
      expect(bounded.origins?.length).toBeGreaterThan(5);
    });
  }

  it('a series whose every step is on time keeps only its last lookback steps before eval_start', async () => {
    await duck.run('DELETE FROM split_observations');
    const onTime = [...Array(31).keys()].map((i) => (i - 20) * 10);
    await duck.run(
      `INSERT INTO split_observations SELECT 'a', 'Q', t, NULL, t, 1.0, 'vintage', 'x'
       FROM (VALUES ${onTime.map((t) => `(${day(t)})`).join(', ')}) AS v(t)`,
    );
    await duck.run('UPDATE split_series SET n_revisions = 0');
    await runSplitModels(duck, BASE_PARAMS);
    const first = await duck.one<{ t: string }>(
      `SELECT strftime(min("timestamp"), '%Y-%m-%d') AS t FROM eval_observations`,
    );
    // Day 30 is the first eval step; lookback 2: the window of the origin at day 30 starts at day 20.
    expect(first.t).toBe(isoDay(20));
    const window = await duck.all<{ t: string }>(
      `SELECT strftime("timestamp", '%Y-%m-%d') AS t FROM inputs WHERE origin = ${day(30)} ORDER BY 1`,
    );
    expect(window).toEqual([{ t: isoDay(20) }, { t: isoDay(30) }]);
  });
});
