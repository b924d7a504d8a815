/**
 * SPEC §7 at scale: labels and sequence characteristics for a synthetic panel of BD series.
 *
 *   npx tsx bench/segments.ts                 # 30,000 series × 16 years (2010-01-04 … 2025-12-31)
 *   npx tsx bench/segments.ts 3000            # fewer series
 *   npx tsx bench/segments.ts 30000 --memory 5GB
 *
 * The panel is generated inside DuckDB with a hash-based PRNG (hash(series, day, k) → uniform → Box–
 * Muller), in blocks of series so the cumulative sums stay small: random walks, ± drifts, jump episodes
 * and high-volatility series, ~1% of days missing. The database lives in a temp file (DuckDB spills and
 * pages there instead of holding the 125 M-row panel in RAM). Prints wall seconds for generation and
 * for buildSegments, CPU seconds, and the process's peak RSS (DuckDB runs in-process, so it counts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Duck } from '@asof/duck';
import { buildSegments } from '../src/index.ts';

const { values, positionals } = parseArgs({
  options: { memory: { type: 'string', default: '5GB' }, threads: { type: 'string', default: '2' } },
  allowPositionals: true,
});
const total = Number(positionals[0] ?? 30_000);
const block = 2_000;

const dir = mkdtempSync(join(tmpdir(), 'asof-segments-bench-'));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const duck = await Duck.open({
  path: join(dir, 'bench.duckdb'),
  threads: Number(values.threads),
  memoryLimit: values.memory,
  tempDirectory: join(dir, 'spill'),
});
try {
  let t0 = performance.now();
  let c0 = cpu();
  await duck.run(`CREATE TABLE bench_days AS
    SELECT CAST(row_number() OVER (ORDER BY d) - 1 AS INTEGER) AS t, CAST(d AS DATE) AS d
    FROM range(TIMESTAMP '2010-01-04', TIMESTAMP '2026-01-01', INTERVAL 1 DAY) AS r(d)
    WHERE dayofweek(d) BETWEEN 1 AND 5`);
  await duck.run(
    'CREATE TABLE observations (series_id VARCHAR, "timestamp" TIMESTAMPTZ, available_at TIMESTAMPTZ, value DOUBLE)',
  );
  await duck.run(`CREATE TABLE series AS
    SELECT 'bench:' || lpad(CAST(i AS VARCHAR), 5, '0') AS series_id, 'BD' AS frequency,
      'Bench ' || CAST(i % 10 AS VARCHAR) AS detail_category, CAST(0 AS BIGINT) AS n_revisions,
      NULL::VARCHAR AS entity_id
    FROM range(${total}) AS r(i)`);
  for (let lo = 0; lo < total; lo += block) {
    const hi = Math.min(total, lo + block);
    // u(k) = a uniform in (0, 1) from hash(series, day, k); 21:00 UTC is the 16:00 New York close (EST).
    await duck.run(
      `INSERT INTO observations
       WITH draws AS (
         SELECT i, t, d,
           sqrt(-2 * ln((hash(i, t, 1)::DOUBLE + 1) / 18446744073709551617.0))
             * cos(2 * pi() * (hash(i, t, 2)::DOUBLE / 18446744073709551616.0)) AS z,
           -- Jump episodes: a whole 4-day block moves ±10% a day (~1.3 blocks a year).
           hash(i, t // 4, 3)::DOUBLE / 18446744073709551616.0 AS u_jump,
           hash(i, t, 4)::DOUBLE / 18446744073709551616.0 AS u_missing,
           0.01 + 0.01 * (hash(i, 0, 5)::DOUBLE / 18446744073709551616.0) AS sigma,
           i % 5 AS process
         FROM range($lo, $hi) AS s(i) CROSS JOIN bench_days
       ),
       returns AS (
         SELECT i, t, d, u_missing,
           CASE process
             WHEN 1 THEN (CASE WHEN i % 2 = 0 THEN 0.4 ELSE -0.4 END) / 252 + sigma * z
             WHEN 2 THEN sigma * z + CASE WHEN u_jump < 0.02 THEN (CASE WHEN u_jump < 0.012 THEN -0.1 ELSE 0.1 END) ELSE 0 END
             WHEN 3 THEN 2.5 * sigma * z
             ELSE sigma * z
           END - sigma * sigma / 2 AS r
         FROM draws
       )
       SELECT 'bench:' || lpad(CAST(i AS VARCHAR), 5, '0'),
         make_timestamptz(epoch_us(d) + 21 * 3600000000),
         make_timestamptz(epoch_us(d) + 21 * 3600000000),
         100 * exp(sum(r) OVER (PARTITION BY i ORDER BY t))
       FROM returns
       QUALIFY u_missing >= 0.01`,
      { lo, hi },
    );
  }
  const rows = Number((await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM observations')).n);
  const genWall = (performance.now() - t0) / 1000;
  const genCpu = cpu() - c0;
  console.log(
    `generated ${total.toLocaleString('en-US')} BD series, ${rows.toLocaleString('en-US')} observations: ${genWall.toFixed(1)} s wall, ${genCpu.toFixed(1)} s CPU`,
  );

  t0 = performance.now();
  c0 = cpu();
  await buildSegments(duck, { log: (line) => console.log(`  ${line}`) });
  const wall = (performance.now() - t0) / 1000;
  const cpuS = cpu() - c0;
  const summary = await duck.all<{ label: string; n: bigint; adf: number; acf1: number; f: number }>(
    `SELECT label, count(*) AS n, avg(adf_stat) AS adf, avg(acf1) AS acf1, avg(forecastability) AS f
     FROM segments GROUP BY label ORDER BY label`,
  );
  const segs = summary.reduce((a, r) => a + Number(r.n), 0);
  console.log(
    `buildSegments: ${segs.toLocaleString('en-US')} segments in ${wall.toFixed(1)} s wall, ${cpuS.toFixed(1)} s CPU`,
  );
  for (const r of summary) {
    console.log(
      `  ${r.label.padEnd(10)} ${String(r.n).padStart(8)}  ADF ${r.adf.toFixed(2)}  acf1 ${r.acf1.toFixed(3)}  forecastability ${r.f.toFixed(3)}`,
    );
  }
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024 / 1024).toFixed(2)} GB`);
} finally {
  duck.close();
  rmSync(dir, { recursive: true, force: true });
}
