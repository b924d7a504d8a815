// Splits a built universe and reports wall time, sizes and peak RSS (SPEC §12: measurements live here,
// never in unit tests). Usage (from the repo root):
//   npx tsx packages/split/bench/split-default.ts [out/default/manifest.json] [--origins all|non_overlapping]
//     [--layout per_origin|compact] [--model-cutoff 2024-06-01 --run-date 2026-11-29]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Layout, type OriginsPolicy, runSplit } from '../src/index.ts';

const { values, positionals } = parseArgs({
  options: {
    origins: { type: 'string' },
    layout: { type: 'string' },
    'model-cutoff': { type: 'string' },
    'run-date': { type: 'string' },
    out: { type: 'string' },
  },
  allowPositionals: true,
});
const manifestPath = resolve(positionals[0] ?? 'out/default/manifest.json');
const outDir = resolve(values.out ?? 'out/bench-split');
let peak = 0;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 100);
const result = await runSplit({
  manifestPath,
  outDir,
  origins: (values.origins as OriginsPolicy | undefined) ?? 'non_overlapping',
  layout: (values.layout as Layout | undefined) ?? 'per_origin',
  modelCutoff: values['model-cutoff'],
  runDate: values['run-date'],
  log: (line) => process.stderr.write(`${line}\n`),
});
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  `split in ${result.seconds.toFixed(1)} s, peak RSS of the node process ${(peak / 2 ** 20).toFixed(0)} MiB`,
);
for (const o of result.manifest.outputs) {
  console.log(
    `  ${o.path.padEnd(28)} ${String(o.rows).padStart(12)} rows ${(o.bytes / 2 ** 20).toFixed(1).padStart(8)} MiB`,
  );
}
console.log(JSON.stringify(result.manifest.summary));
