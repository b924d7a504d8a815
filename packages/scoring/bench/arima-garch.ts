/**
 * Times the ARIMA and GARCH(1,1) baselines on a split's series and origins, as the scorer would run them:
 * per series its origins in ascending order, each from the origin's history_tail (≤ MAX_HISTORY_TAIL values)
 * and history_tail_back, parameters estimated every K origins and re-filtered in between.
 *
 *   npm start && npx asof split --manifest out/default/manifest.json --out out/default-split --dm
 *   npx tsx packages/scoring/bench/arima-garch.ts out/default-split/manifest.json [--refit-every K]
 *
 * Prints origins, refits, fallbacks, wall time of each model and the process's peak RSS.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ArimaBaseline, GarchBaseline } from '@asof/baselines';
import type { Manifest } from '@asof/schema';
import { readSplitTables } from '../src/read-split-tables.ts';

const args = process.argv.slice(2);
const manifestPath = args.find((a) => !a.startsWith('--')) ?? 'out/default-split/manifest.json';
const k = args.indexOf('--refit-every');
const refitEvery = k >= 0 ? Number(args[k + 1]) : 10;

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
const t0 = performance.now();
const split = await readSplitTables(manifest, dirname(manifestPath));
const readMs = performance.now() - t0;
const origins = [...split.origins].sort((a, b) =>
  a.series_id < b.series_id
    ? -1
    : a.series_id > b.series_id
      ? 1
      : Date.parse(a.origin) - Date.parse(b.origin),
);
const series = new Set(origins.map((o) => o.series_id)).size;
const tailLengths = origins.map((o) => o.history_tail?.length ?? 0);
console.log(
  `split ${manifestPath}: ${series} series, ${origins.length} origins, history tail ${Math.min(...tailLengths)}…${Math.max(...tailLengths)} values (read in ${(readMs / 1000).toFixed(1)} s), refit every ${refitEvery}`,
);

for (const [name, model] of [
  ['arima', new ArimaBaseline({ refitEvery })],
  ['garch', new GarchBaseline({ refitEvery })],
] as const) {
  let refits = 0;
  let fallbacks = 0;
  let none = 0;
  let slowest = 0;
  const start = performance.now();
  for (const o of origins) {
    const t = performance.now();
    const path = model.pathAt(
      o.series_id,
      Date.parse(o.origin),
      o.history_tail ?? [o.last_value],
      o.history_tail_back ?? null,
      o.horizon,
    );
    slowest = Math.max(slowest, performance.now() - t);
    if (!path) none++;
    else {
      if (path.refit) refits++;
      if (path.fallback) fallbacks++;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${name}: ${origins.length} origins, ${refits} refits, ${fallbacks} fallbacks, ${none} without a forecast; ${seconds.toFixed(1)} s wall (${((seconds * 1000) / origins.length).toFixed(1)} ms/origin, slowest ${slowest.toFixed(0)} ms)`,
  );
}
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
