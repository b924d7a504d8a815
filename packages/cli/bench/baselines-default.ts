// Times `asof baselines` on the default universe's splits (issue 16, Build 7): the per-origin
// non-overlapping split (`asof split --dm`) and the compact all-origins split (`--origins all --layout
// compact`, ≈325k origins and ≈80M forecast rows per model), each as its own `asof` process, and prints wall seconds,
// peak RSS (the child's own maxRSS, read at its exit), rows and the machine's load average before and after
// (the machine is shared: a busy one stretches the wall time, not the RSS).
// The sha256 of each file is printed too: the two non-overlapping layouts must give the same bytes.
//   npm start && npx tsx packages/cli/bench/baselines-default.ts [--universe out/default/manifest.json]
//     [--only per_origin|compact|compact_all] [--keep]                          (from the repo root)
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    universe: { type: 'string', default: 'out/default/manifest.json' },
    out: { type: 'string', default: 'out/bench/baselines-default' },
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const root = resolve(import.meta.dirname, '..', '..', '..');
const universe = resolve(root, args.universe);
if (!existsSync(universe)) {
  console.error(`bench: ${args.universe} not found; build the default universe first with 'npm start'`);
  process.exit(2);
}
const outDir = resolve(root, args.out);
const asof = join(root, 'packages', 'cli', 'bin', 'asof.mjs');
const rssDir = mkdtempSync(join(tmpdir(), 'asof-bench-rss-'));
// Preloaded into each child: its own peak RSS (getrusage maxrss), written when it exits.
const reportRss = `data:text/javascript,${encodeURIComponent(
  'import{writeFileSync}from"node:fs";process.on("exit",()=>{const f=process.env.ASOF_BENCH_RSS_FILE;if(f)writeFileSync(f,String(process.resourceUsage().maxRSS))})',
)}`;

interface Run {
  seconds: number;
  peakRssMb: number;
  stdout: string;
}

/** Runs `asof <args>` as a child process; wall time and the child's peak RSS. */
async function runAsof(argv: string[], label: string): Promise<Run> {
  const rssFile = join(rssDir, `${label}.rss`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', reportRss, asof, ...argv], {
    cwd: root,
    env: { ...process.env, ASOF_BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    // The command's progress lines, indented under the bench's own.
    for (const line of String(d).split('\n')) if (line.trim()) console.log(`    ${line}`);
  });
  const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) {
    console.error(`bench: asof ${argv.join(' ')} exited ${code}\n${stderr}`);
    process.exit(1);
  }
  const kb = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
  return { seconds, peakRssMb: Math.round(kb / 1024), stdout };
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const cases = [
  { name: 'per_origin', split: ['--dm'], note: 'per-origin, non-overlapping (--dm)' },
  { name: 'compact', split: ['--layout', 'compact'], note: 'compact, non-overlapping' },
  // Per-origin with every origin is refused by asof split on this universe (83M input rows > 50M).
  { name: 'compact_all', split: ['--origins', 'all', '--layout', 'compact'], note: 'compact, all origins' },
].filter((c) => !args.only || c.name === args.only);

console.log(`bench: asof baselines on ${args.universe}; load average ${load()} (1, 5, 15 min)`);
for (const c of cases) {
  const split = join(outDir, `split-${c.name}`);
  const made = await runAsof(
    ['split', '--manifest', universe, '--out', split, ...c.split],
    `split-${c.name}`,
  );
  console.log(
    `${c.name.padEnd(12)} split      ${made.seconds.toFixed(1).padStart(7)} s  peak RSS ${made.peakRssMb} MB  (${c.note})`,
  );
  const file = join(outDir, `baselines-${c.name}.parquet`);
  const r = await runAsof(
    ['baselines', '--manifest', join(split, 'manifest.json'), '--out', file, '--json'],
    `baselines-${c.name}`,
  );
  const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as {
    rows: number;
    origins: number;
    series: number;
    guard: { requests: number; rows: number };
  };
  console.log(
    `${c.name.padEnd(12)} baselines  ${r.seconds.toFixed(1).padStart(7)} s  peak RSS ${r.peakRssMb} MB  ${out.rows.toLocaleString('en-US')} rows, ${out.origins.toLocaleString('en-US')} origins, ${out.series} series, guard ${out.guard.requests.toLocaleString('en-US')} requests / ${out.guard.rows.toLocaleString('en-US')} rows  (load ${load()})`,
  );
  console.log(`${''.padEnd(12)} sha256     ${await sha256Of(file)}`);
}
rmSync(rssDir, { recursive: true, force: true });
if (!args.keep) {
  // Each split is a link and its store (docs/decisions/0010); each baselines file a plain file.
  for (const c of cases) {
    for (const p of [join(outDir, `split-${c.name}`), join(outDir, `baselines-${c.name}.parquet`)]) {
      rmSync(p, { force: true });
      rmSync(join(dirname(p), '.asof', basename(p)), { recursive: true, force: true });
    }
  }
}
