/**
 * Mock FRED on 127.0.0.1 with a 4,500-vintage-date series, fetched through the real client (realtime window
 * chunking at 2000 vintage dates, paging, the per-host limiter, retries). FRED's limit itself (120 requests
 * per 60 s) is not scaled; the clock is: `virtual` (default) jumps over every wait, so the limiter is the only
 * thing that spaces requests; a number runs time that many times faster than the wall clock (real
 * latency then counts too).
 *
 *   npx tsx packages/source-fred/bench/mock-server.ts [virtual|<scale>] [pageLimit=60]
 */

import {
  createScaledClock,
  createVirtualClock,
  manyVintageSeries,
  maxInWindow,
  startMockFredServer,
} from '@asof/test-kit';
import { createFredClient } from '../src/fetch-fred.ts';

const mode = process.argv[2] ?? 'virtual';
const pageLimit = Number(process.argv[3] ?? 60);
const key = 'b'.repeat(32);
const clock = mode === 'virtual' ? createVirtualClock(0) : createScaledClock(Number(mode));
const series = manyVintageSeries('MOCK4500', 4500);
const server = await startMockFredServer({
  apiKey: key,
  series: [series],
  clock,
  inject: (i) => (i === 7 ? 429 : i === 30 ? 503 : undefined),
});
const client = createFredClient({
  apiKey: key,
  baseUrl: server.baseUrl,
  clock,
  observationsPageLimit: pageLimit,
  log: (line) => process.stderr.write(`${line}\n`),
});
const wall = performance.now();
try {
  const bundle = await client.fetchSeries('MOCK4500');
  const wallMs = performance.now() - wall;
  const times = server.requests.map((r) => r.at);
  const spanMs = Math.max(...times) - Math.min(...times);
  const key2 = (o: { date: string; realtime_start: string; realtime_end: string; value: string }) =>
    `${o.date}|${o.realtime_start}|${o.realtime_end}|${o.value}`;
  const expected = new Set(series.rows.map(key2));
  const got = new Set(bundle.observations.map(key2));
  const lost = [...expected].filter((k) => !got.has(k)).length;
  const extra = [...got].filter((k) => !expected.has(k)).length;
  const stats = client.stats();
  const out = {
    vintage_dates: bundle.vintageDates.length,
    realtime_windows: bundle.windows.length,
    rows_expected: series.rows.length,
    rows_fetched: bundle.observations.length,
    rows_lost: lost,
    rows_extra: extra,
    requests: server.requests.length,
    retries: stats.retries,
    statuses: Object.fromEntries(
      [...new Set(server.requests.map((r) => r.status))].map((s) => [
        s,
        server.requests.filter((r) => r.status === s).length,
      ]),
    ),
    max_requests_in_any_60s: maxInWindow(times, 60_000),
    simulated_minutes: +(spanMs / 60_000).toFixed(2),
    rate_per_simulated_minute: +((server.requests.length / spanMs) * 60_000).toFixed(1),
    wall_seconds: +(wallMs / 1000).toFixed(2),
    clock: mode === 'virtual' ? 'virtual' : `scaled x${mode}`,
    wall_requests_per_second: +(server.requests.length / (wallMs / 1000)).toFixed(1),
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  if (lost > 0 || extra > 0 || out.max_requests_in_any_60s > 120) process.exitCode = 1;
} finally {
  await client.close();
  await server.close();
}
