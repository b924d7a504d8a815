/**
 * Parse benchmark for the acceptance figures: the 3,303-bar TSLA Yahoo chart and the 10,416-row
 * Stooq AAPL CSV, plus the full map (unadjust, quality, atomic rows) of each. Run from the package:
 *   npx tsx bench/parse.ts [rounds]
 * Reports the first (cold) run and the median of the following warm runs, wall and CPU time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CollectingSink } from '@asof/schema';
import { mapPricesToAtomic, parseStooqCsv, parseYahooChart } from '../src/index.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
if (!existsSync(dir)) {
  process.stderr.write(`bench/parse.ts: ${dir} is missing (needs ../shared/fixtures/real)\n`);
  process.exit(2);
}
const rounds = Number(process.argv[2] ?? 15);
const tsla = readFileSync(`${dir}yahoo_chart_TSLA_2010-06-29_2023-08-11_daily.json`, 'utf8');
const stooq = readFileSync(`${dir}stooq_aapl_us_d_1984-09-07_2026-01-09.csv`, 'utf8');

interface Timing {
  wallMs: number;
  cpuMs: number;
}
function time(fn: () => unknown): Timing {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000 };
}
function report(label: string, fn: () => unknown): void {
  const cold = time(fn);
  const warm: Timing[] = [];
  for (let i = 0; i < rounds; i++) warm.push(time(fn));
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  process.stdout.write(
    `${label.padEnd(44)} cold ${cold.wallMs.toFixed(1).padStart(7)} ms wall ${cold.cpuMs.toFixed(1).padStart(7)} ms cpu | ` +
      `warm median ${med(warm.map((w) => w.wallMs))
        .toFixed(1)
        .padStart(6)} ms wall ${med(warm.map((w) => w.cpuMs))
        .toFixed(1)
        .padStart(6)} ms cpu\n`,
  );
}

report('parseYahooChart TSLA (3,303 bars)', () => parseYahooChart(tsla));
report('parseStooqCsv AAPL (10,416 rows)', () => parseStooqCsv(stooq));
const pt = parseYahooChart(tsla);
report('map TSLA (unadjust + quality + 16.5k rows)', () =>
  mapPricesToAtomic(
    [
      {
        parsed: pt,
        downloadedAt: Date.UTC(2025, 1, 21) * 1000,
        sourceRef: 'bench',
        knownSplits: [
          { exDate: '2020-08-31', ratio: 5 },
          { exDate: '2022-08-25', ratio: 3 },
        ],
      },
    ],
    new CollectingSink(),
    { symbol: 'TSLA', kind: 'equity', source: 'yahoo', totalReturn: true },
  ),
);
const ps = parseStooqCsv(stooq);
report('map Stooq AAPL (quality + 52k rows)', () =>
  mapPricesToAtomic(
    [{ parsed: ps, downloadedAt: Date.UTC(2026, 0, 17) * 1000, sourceRef: 'bench' }],
    new CollectingSink(),
    {
      symbol: 'AAPL',
      kind: 'equity',
      source: 'stooq',
    },
  ),
);
