// Times the synthetic EDGAR generator + parser at the default pipeline's size (npx tsx bench/synthetic-edgar.bench.ts).
import { CollectingSink } from '@asof/schema';
import { generateSyntheticEdgar, ingestSyntheticEdgar } from '../src/generate-synthetic-edgar.ts';
import { ingestEdgarRawDir } from '../src/ingest-edgar-raw-dir.ts';

const companies = Number(process.argv[2] ?? 50);
const fiscalYears = Number(process.argv[3] ?? 21);
let t = performance.now();
const files = generateSyntheticEdgar({ seed: 20260101, companies, firstFiscalYear: 2005, fiscalYears });
const bytes = files.reduce((n, f) => n + JSON.stringify(f.json).length, 0);
console.log(
  `generate: ${companies} companies × ${fiscalYears} years, ${(bytes / 1e6).toFixed(1)} MB JSON in ${(performance.now() - t).toFixed(0)} ms`,
);
t = performance.now();
const sink = new CollectingSink();
const s = ingestSyntheticEdgar(sink, { seed: 20260101, companies, firstFiscalYear: 2005, fiscalYears });
console.log(
  `generate + ingest: ${s.series} series, ${s.observations} rows (${s.revisions} revisions) in ${(performance.now() - t).toFixed(0)} ms`,
);
const dir = process.argv[4];
if (dir) {
  t = performance.now();
  const real = new CollectingSink();
  const r = await ingestEdgarRawDir(dir, real);
  console.log(
    `raw dir ${dir}: ${r.series} series, ${r.observations} rows in ${(performance.now() - t).toFixed(0)} ms`,
  );
}
