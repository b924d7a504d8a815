import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASELINE_QUANTILE_LEVELS } from '@asof/baselines';
import { Duck, INTEGER, loadQuery, PARQUET_ROW_GROUP_ROWS, quoteLiteral, VARCHAR } from '@asof/duck';
import { afterAll, describe, expect, it } from 'vitest';
import { type ForecastColumns, ForecastParts } from './forecast-parts.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-forecast-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const partQuery = loadQuery(new URL('../sql/', import.meta.url), 'baseline_forecasts');
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

const MODELS = ['random_walk', 'drift', 'arima'];
const ORIGINS = 4000;
const STEPS = 30;

/** Model m's rows for origins [lo, hi): a point model has NULL quantiles. */
function rowsOf(m: number, lo: number, hi: number): ForecastColumns {
  const originNo: number[] = [];
  const step: number[] = [];
  const value: number[] = [];
  for (let o = lo; o < hi; o++) {
    for (let k = 1; k <= STEPS; k++) {
      originNo.push(o);
      step.push(k);
      value.push(Math.sin(o * 7.1 + k * 0.3 + m) * 100);
    }
  }
  const quantiles =
    MODELS[m] === 'arima' ? BASELINE_QUANTILE_LEVELS.map((l) => value.map((v) => v + (l - 0.5) * 3)) : null;
  return { originNo, step, value, quantiles };
}

async function openDuck(): Promise<Duck> {
  const duck = await Duck.open({ threads: 2, memoryLimit: '512MB' });
  await duck.run('CREATE TABLE forecast_models (model_no INTEGER, model VARCHAR, model_rank INTEGER)');
  const byName = [...MODELS].sort();
  await duck.appendColumns(
    'forecast_models',
    [INTEGER, VARCHAR, INTEGER],
    [MODELS.map((_, i) => i), MODELS, MODELS.map((m) => byName.indexOf(m))],
  );
  await duck.run(
    `CREATE TABLE forecast_origins AS SELECT i::INTEGER AS origin_no, 's' || lpad((i // 40)::VARCHAR, 4, '0') AS series_id,
       epoch_us(TIMESTAMP '2020-01-01' + to_days((i % 40)::INTEGER)) AS origin_us
     FROM range(1, ${ORIGINS + 1}) AS r(i)`,
  );
  return duck;
}

/** Every model's rows in name order, handed over in batches of `origins` origins, joined into one file. */
async function writeInBatches(name: string, origins: number, rowGroupsPerPart: number): Promise<string> {
  const duck = await openDuck();
  try {
    const parts = await ForecastParts.open(duck, join(dir, name), partQuery, rowGroupsPerPart);
    for (const model of [...MODELS].sort()) {
      const m = MODELS.indexOf(model);
      for (let lo = 1; lo <= ORIGINS; lo += origins) {
        await parts.append(
          m,
          [...MODELS].sort().indexOf(model),
          rowsOf(m, lo, Math.min(ORIGINS + 1, lo + origins)),
        );
      }
    }
    // Written rows leave the work tables: they never hold more than a part plus one batch.
    const [held] = await duck.all<{ n: bigint }>(
      'SELECT (SELECT count(*) FROM forecast_chunk) + (SELECT count(*) FROM forecast_chunk_points) AS n',
    );
    expect(Number(held.n)).toBeLessThan(rowGroupsPerPart * PARQUET_ROW_GROUP_ROWS + origins * STEPS);
    const files = await parts.finish();
    expect(files).toHaveLength(Math.ceil(parts.rows / (rowGroupsPerPart * PARQUET_ROW_GROUP_ROWS)));
    expect(parts.rows).toBe(MODELS.length * ORIGINS * STEPS);
    const out = join(dir, `${name}.parquet`);
    await duck.concatParquet(files, out);
    return out;
  } finally {
    duck.close();
  }
}

describe('ForecastParts', () => {
  it('writes the bytes of one sorted COPY, however the rows were batched', async () => {
    // 360,000 rows: three parts of one row group, or two of two, or one; batches cut across models.
    expect(MODELS.length * ORIGINS * STEPS).toBeGreaterThan(2 * PARQUET_ROW_GROUP_ROWS);
    const a = await writeInBatches('a', 37, 1);
    const b = await writeInBatches('b', 777, 2);
    const c = await writeInBatches('c', ORIGINS, 8);
    expect(sha(b)).toBe(sha(a));
    expect(sha(c)).toBe(sha(a));
    // The same bytes as one sorted COPY over all the rows on the file's grain.
    const duck = await openDuck();
    try {
      const parts = await ForecastParts.open(duck, join(dir, 'whole-parts'), partQuery);
      for (const model of [...MODELS].sort()) {
        const m = MODELS.indexOf(model);
        await parts.append(m, [...MODELS].sort().indexOf(model), rowsOf(m, 1, ORIGINS + 1));
      }
      const whole = join(dir, 'whole.parquet');
      await duck.writeParquet(
        `SELECT m.model, o.series_id, make_timestamptz(o.origin_us) AS origin, f.* EXCLUDE (seq, model_no, model_rank, origin_no)
         FROM (SELECT * FROM forecast_chunk UNION ALL BY NAME SELECT * FROM forecast_chunk_points) AS f JOIN forecast_models AS m USING (model_no) JOIN forecast_origins AS o USING (origin_no)
         ORDER BY model, series_id, origin, step`,
        whole,
      );
      expect(sha(a)).toBe(sha(whole));
      const [r] = await duck.all<{ n: bigint; models: string }>(
        `SELECT count(*) AS n, string_agg(DISTINCT model, ',' ORDER BY model) AS models FROM read_parquet(${quoteLiteral(a)})`,
      );
      expect(r).toEqual({ n: 360_000n, models: 'arima,drift,random_walk' });
    } finally {
      duck.close();
    }
  }, 120_000);

  it('refuses rows out of the file order', async () => {
    const duck = await openDuck();
    try {
      const parts = await ForecastParts.open(duck, join(dir, 'bad'), partQuery);
      await parts.append(1, 1, rowsOf(1, 10, 12));
      // An earlier origin of the same model, then an earlier model.
      await expect(parts.append(1, 1, rowsOf(1, 5, 6))).rejects.toThrow(/out of the file's order/);
      await expect(parts.append(2, 0, rowsOf(2, 20, 21))).rejects.toThrow(/model rank 0, origin_no 20/);
    } finally {
      duck.close();
    }
  });
});
