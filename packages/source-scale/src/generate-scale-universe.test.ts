import { Duck, loadSql, pickUsedParams } from '@asof/duck';
import { defaultRegistry } from '@asof/taxonomy';
import { createStagingTables, loadRegistryTables } from '@asof/transform';
import { describe, expect, it } from 'vitest';
import {
  generateScaleUniverse,
  planScaleUniverse,
  SCALE_KEY_OFFSET,
  SCALE_SEQ_OFFSET,
  scaleAnchors,
} from './generate-scale-universe.ts';
import { readScaleShape } from './read-scale-shape.ts';
import { ScaleConfig } from './scale-config.ts';

describe('planScaleUniverse', () => {
  it('has FinVerse Table 1 totals at scale 1', () => {
    const plan = planScaleUniverse(1);
    expect(plan).toHaveLength(119);
    expect(plan.reduce((s, u) => s + u.n_series, 0)).toBe(116_897);
    expect(Math.round(plan.reduce((s, u) => s + u.n_series * u.mean_len, 0))).toBe(171_095_260);
  });

  it('keeps every unit at small scales and classifies kinds', () => {
    const plan = planScaleUniverse(0.0001);
    expect(plan.every((u) => u.n_series >= 1)).toBe(true);
    const kind = (d: string, f: string) =>
      plan.find((u) => u.detail_category === d && u.frequency === f)?.kind;
    expect(kind('Equity OHLCV Close', 'BD')).toBe('bar');
    expect(kind('Equity OHLCV Volume', 'BD')).toBe('volume');
    expect(kind('Revenue', 'Q')).toBe('fundamental');
    expect(kind('Inflation', 'M')).toBe('macro');
  });

  it('reads the shape table with frequencies as codes', () => {
    const shape = readScaleShape();
    expect(new Set(shape.map((r) => r.frequency))).toEqual(new Set(['BD', 'D', 'W', 'M', 'Q', 'A']));
  });
});

describe('scaleAnchors', () => {
  it('finds the last period end of each grid on or before the end date', () => {
    // 2025-06-29 is a Sunday.
    const a = scaleAnchors('2025-06-29');
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
    expect(a.bd_anchor).toBe(day('2025-06-27'));
    expect(a.bd_pos).toBe(4);
    expect(a.w_anchor).toBe(day('2025-06-27'));
    expect(a.d_anchor).toBe(day('2025-06-29'));
    expect(a.m_first).toBe('2025-05-01');
    expect(a.q_first).toBe('2025-03-01');
    expect(a.a_first).toBe('2024-12-01');
    expect(scaleAnchors('2025-06-30').m_first).toBe('2025-06-01');
    expect(scaleAnchors('2025-12-31').a_first).toBe('2025-12-01');
  });
});

async function generate(threads: number, scale: number) {
  const duck = await Duck.open({ threads });
  await createStagingTables(duck);
  const registry = defaultRegistry();
  await loadRegistryTables(duck, registry);
  const config = ScaleConfig.parse({ seed: 7, scale });
  const result = await generateScaleUniverse(duck, config, registry);
  return { duck, result };
}

describe('generateScaleUniverse', () => {
  it('stages the planned series with deterministic rows at any thread count', async () => {
    const scale = 0.0002;
    const one = await generate(1, scale);
    const two = await generate(2, scale);
    try {
      const plan = planScaleUniverse(scale);
      expect(one.result.series).toBe(plan.reduce((s, u) => s + u.n_series, 0));
      expect(one.result).toEqual(two.result);
      const digest = `SELECT sum(hash(series_key, ts_us, available_at_us, value, basis_key, ref_key, stage_seq) % 1000000007) AS h,
                             count(*) AS n FROM stg_observations`;
      expect(await one.duck.one(digest)).toEqual(await two.duck.one(digest));
      const checks = await one.duck.one<Record<string, bigint>>(
        `SELECT count(*) FILTER (WHERE NOT isfinite(value) OR value <= 0) AS bad_value,
                count(*) FILTER (WHERE available_at_us < ts_us) AS early,
                count(*) FILTER (WHERE b.text = 'bar_close' AND dayofweek(make_timestamp(CAST(ts_us AS BIGINT))) IN (0, 6)
                                   AND s.frequency = 'BD') AS weekend_bars,
                count(DISTINCT o.series_key) AS series_with_rows,
                count(*) FILTER (WHERE r.text IN ('scale:revised', 'scale:restated')) AS revisions
         FROM stg_observations o
         JOIN stg_keys b ON b.kind = 'basis' AND b.key = o.basis_key
         JOIN stg_keys r ON r.kind = 'ref' AND r.key = o.ref_key
         JOIN stg_keys k ON k.kind = 'series' AND k.key = o.series_key
         JOIN stg_series s ON s.series_id = k.text`,
      );
      expect(checks.bad_value).toBe(0n);
      expect(checks.early).toBe(0n);
      expect(checks.weekend_bars).toBe(0n);
      expect(Number(checks.series_with_rows)).toBe(one.result.series);
      expect(Number(checks.revisions)).toBeGreaterThan(0);
      // History lengths average FinVerse's points per series, so the row count is near the planned one.
      const planned = plan.reduce((s, u) => s + u.n_series * u.mean_len, 0);
      const firstReleases = one.result.rows - Number(checks.revisions);
      expect(firstReleases / planned).toBeGreaterThan(0.6);
      expect(firstReleases / planned).toBeLessThan(1.4);
    } finally {
      one.duck.close();
      two.duck.close();
    }
  }, 60_000);
});

describe('scale_observations', () => {
  it('levels are the running sum of every step, the same integers as one window over all steps', async () => {
    // Lengths around the model's blocks of 16 steps: one block, a partial block, several with a partial tail.
    const lengths = [2, 15, 16, 17, 32, 33, 100, 1000];
    const duck = await Duck.open({ threads: 2 });
    try {
      await duck.run(
        `CREATE TABLE scale_series AS SELECT CAST(i AS INTEGER) AS series_idx, 'bar' AS kind, 'BD' AS frequency,
           50.0 + i AS base, CAST(len AS INTEGER) AS len, 0.015 AS sigma, 0.00002 * (i - 3) AS mu
         FROM (SELECT unnest(range(${lengths.length})) AS i, unnest([${lengths.join(', ')}]) AS len)`,
      );
      const params = {
        seed: 7n,
        ...scaleAnchors('2025-06-29'),
        key_offset: SCALE_KEY_OFFSET,
        seq_offset: SCALE_SEQ_OFFSET,
      };
      const model = loadSql(new URL('../sql/', import.meta.url), 'scale_observations');
      await duck.createTable('modelled', model, params);
      // The definition: one window over every step, as the model computed it before issue 21.
      const reference = `SELECT series_idx + $key_offset AS series_key, $seq_offset + (series_idx * 65536.0 + k) * 2 AS stage_seq,
          round(base * exp(sum(inc) OVER (PARTITION BY series_idx ORDER BY k ROWS UNBOUNDED PRECEDING) / 1e6), 6) AS value
        FROM (
          SELECT series_idx, base, k, CAST(round((mu + sigma
              * sqrt(-2 * ln((CAST(hash($seed, series_idx, k) >> 32 AS DOUBLE) + 0.5) / 4294967296.0))
              * cos(2 * pi() * CAST(hash($seed, series_idx, k) & 4294967295 AS DOUBLE) / 4294967296.0)) * 1e6) AS BIGINT) AS inc
          FROM (SELECT *, CAST(unnest(range(len)) AS INTEGER) AS k FROM scale_series)
        )`;
      await duck.createTable('expected', reference, pickUsedParams(reference, params));
      const compare = await duck.one<{ rows: bigint; expected: bigint; differ: bigint }>(
        `SELECT (SELECT count(*) FROM modelled) AS rows, (SELECT count(*) FROM expected) AS expected,
           (SELECT count(*) FROM modelled m FULL JOIN expected e USING (series_key, stage_seq)
            WHERE m.value IS DISTINCT FROM e.value) AS differ`,
      );
      expect(compare).toEqual({
        rows: BigInt(lengths.reduce((a, b) => a + b, 0)),
        expected: BigInt(lengths.reduce((a, b) => a + b, 0)),
        differ: 0n,
      });
    } finally {
      duck.close();
    }
  });
});
