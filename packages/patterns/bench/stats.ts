/**
 * Times the SPEC §7 sequence characteristics over many random return series.
 *
 *   npx tsx bench/stats.ts            # 30,000 series of 250 and of 4,000 points
 *   npx tsx bench/stats.ts 3000       # fewer series, same lengths
 *
 * Series are generated in batches (1,000 at a time) so memory stays small; generation is outside the
 * timed sections. Single-threaded. Timed by process CPU time (user + system) rather than wall clock,
 * because the development machine's 2 cores are shared and wall time mostly measures the neighbours.
 */
import { adfStatistic, forecastability, lag1Autocorrelation } from '@asof/stats';

const total = Number(process.argv[2] ?? 30_000);
const lengths = (process.argv[3] ?? '250,4000').split(',').map(Number);
const batch = 1_000;

/** Process CPU milliseconds (user + system). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

// xorshift128+ and Box–Muller: deterministic and cheap, so the bench is reproducible.
let s0 = 0x9e3779b9;
let s1 = 0x243f6a88;
function uniform(): number {
  let x = s0;
  const y = s1;
  s0 = y;
  x ^= x << 23;
  x ^= x >>> 17;
  x ^= y ^ (y >>> 26);
  s1 = x;
  return ((s0 + s1) >>> 0) / 4294967296 + 1 / 8589934592;
}
function normal(): number {
  return Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

function fillSeries(buf: Float64Array[], n: number): void {
  for (const x of buf) {
    // AR(1) returns with a random coefficient, so the ADF lag search sees varied lag choices.
    const phi = uniform() * 0.6 - 0.2;
    let prev = 0;
    for (let t = 0; t < n; t++) {
      prev = phi * prev + 0.01 * normal();
      x[t] = prev;
    }
  }
}

for (const n of lengths) {
  const buf = Array.from({ length: Math.min(batch, total) }, () => new Float64Array(n));
  const ms = { adf: 0, acf: 0, forecastability: 0 };
  let sink = 0;
  const lagHistogram = new Map<number, number>();
  for (let done = 0; done < total; done += buf.length) {
    const count = Math.min(buf.length, total - done);
    fillSeries(buf, n);
    let t0 = cpuMs();
    for (let i = 0; i < count; i++) {
      const r = adfStatistic(buf[i]);
      sink += r.stat;
      lagHistogram.set(r.usedLag, (lagHistogram.get(r.usedLag) ?? 0) + 1);
    }
    ms.adf += cpuMs() - t0;
    t0 = cpuMs();
    for (let i = 0; i < count; i++) sink += lag1Autocorrelation(buf[i]);
    ms.acf += cpuMs() - t0;
    t0 = cpuMs();
    for (let i = 0; i < count; i++) sink += forecastability(buf[i]);
    ms.forecastability += cpuMs() - t0;
  }
  const sum = ms.adf + ms.acf + ms.forecastability;
  const fmt = (v: number) => `${(v / 1000).toFixed(2)} s (${((v * 1000) / total).toFixed(1)} µs/series)`;
  console.log(`n = ${n}, ${total} series`);
  console.log(`  adfStatistic (ct, AIC)   ${fmt(ms.adf)}`);
  console.log(`  lag1Autocorrelation      ${fmt(ms.acf)}`);
  console.log(`  forecastability          ${fmt(ms.forecastability)}`);
  console.log(`  all three                ${fmt(sum)}`);
  const lags = [...lagHistogram.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}:${v}`);
  console.log(`  ADF used-lag histogram   ${lags.join(' ')}   (checksum ${sink.toFixed(3)})`);
}
