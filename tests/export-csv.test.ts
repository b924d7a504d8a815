import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn } from './helpers.ts';
import { pythonWith, requirePython } from './python-available.ts';
import { linkShared, tinyFixture } from './shared-fixtures.ts';

// Issue 17: `asof export csv` of a universe and of a split; Debian's pandas (no pyarrow) reads every CSV
// with the row count its manifest states, the instants as UTC datetimes and the period labels.
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-csv-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
const pandas = pythonWith('import pandas');
const hasPandas = requirePython(pandas, 'python3-pandas', 'the pandas reading of asof export csv');

beforeAll(async () => {
  // The run's shared tiny universe and its default split, linked: exports only read them.
  const tiny = await tinyFixture();
  linkShared(work, { u: tiny.universe, s: tiny.split });
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Manifest {
  dataset_id: string;
  parent_dataset_id: string | null;
  kind: string;
  outputs: { path: string; table: string; rows: number }[];
}
const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(work, dir, 'manifest.json'), 'utf8'));

// The README's loader, then per listed file: rows, columns, and checks of the instants and labels.
const READ = `
import json, sys, pandas as pd
d = sys.argv[1]; m = json.load(open(f"{d}/manifest.json"))
out = []
for o in m["outputs"]:
    df = pd.read_csv(f"{d}/{o['path']}", low_memory=False)
    row = {"path": o["path"], "rows": len(df), "columns": list(df.columns)}
    if "timestamp" in df.columns and len(df):
        ts = pd.to_datetime(df["timestamp"], utc=True)
        row["timestamp_nat"] = int(ts.isna().sum())
        row["first_timestamp"] = ts.min().isoformat()
    if "period" in df.columns:
        row["period_missing"] = int(df["period"].isna().sum())
    out.append(row)
print(json.dumps(out))
`;

function readWithPandas(dir: string) {
  const r = spawnSync(pandas!, ['-c', READ, join(work, dir)], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    path: string;
    rows: number;
    columns: string[];
    timestamp_nat?: number;
    period_missing?: number;
    first_timestamp?: string;
  }[];
}

describe('asof export csv', { timeout: 300_000 }, () => {
  it('writes every listed table of a universe as CSV with its own verified manifest', async () => {
    const r = await run('export', 'csv', '--manifest', 'u/manifest.json', '--out', 'u-csv');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^next: asof verify u-csv\/manifest\.json/m);
    const parent = manifestOf('u');
    const m = manifestOf('u-csv');
    expect(m.kind).toBe('csv-export');
    expect(m.parent_dataset_id).toBe(parent.dataset_id);
    expect(m.outputs.map((o) => [o.path, o.table, o.rows])).toEqual(
      parent.outputs.map((o) => [o.path.replace(/\.parquet$/, '.csv'), o.table, o.rows]),
    );
    expect((await run('verify', 'u-csv/manifest.json')).code).toBe(0);
    const obs = readFileSync(join(work, 'u-csv', 'observations', 'frequency=M', 'data.csv'), 'utf8').split(
      '\n',
    );
    expect(obs[0]).toBe(
      'series_id,timestamp,period_start,available_at,value,available_at_basis,source_ref,period',
    );
    // Plain ISO instants and the period in the series' terms: the January value is 2012-01, its timestamp
    // the end of January in New York (05:00 UTC the next day, less a microsecond).
    expect(obs[1]).toMatch(
      /^syn:fred:\w+,2012-02-01T04:59:59\.999999Z,2012-01-01T05:00:00\.000000Z,2012-\d\d-\d\dT[\d:.]+Z,[\d.]+,vintage,[^,]+,2012-01$/,
    );
  });

  it('writes a split the same way', async () => {
    const r = await run('export', 'csv', '--manifest', 's/manifest.json', '--out', 's-csv');
    expect(r.code, r.stderr).toBe(0);
    const m = manifestOf('s-csv');
    expect(m.parent_dataset_id).toBe(manifestOf('s').dataset_id);
    expect(m.outputs.map((o) => o.table).sort()).toEqual(
      manifestOf('s')
        .outputs.map((o) => o.table)
        .sort(),
    );
    const inputs = readFileSync(join(work, 's-csv', 'inputs.csv'), 'utf8').split('\n')[0];
    expect(inputs.split(',')).toEqual([
      'series_id',
      'origin',
      'timestamp',
      'period_start',
      'available_at',
      'value',
      'available_at_basis',
      'source_ref',
      'step_index',
      'period',
    ]);
  });

  it('refuses export fintsb options and a missing --out with exit 2', async () => {
    expect((await run('export', 'csv', '--manifest', 'u/manifest.json', '--out', 'x', '--k', '3')).code).toBe(
      2,
    );
    expect((await run('export', 'csv', '--manifest', 'u/manifest.json')).code).toBe(2);
  });

  it.skipIf(!hasPandas)(
    'pandas (Debian python3-pandas) reads every CSV with the rows of the manifest',
    () => {
      for (const dir of ['u-csv', 's-csv']) {
        const m = manifestOf(dir);
        const read = readWithPandas(dir);
        expect(read.map((x) => [x.path, x.rows])).toEqual(m.outputs.map((o) => [o.path, o.rows]));
        expect(read.reduce((s, x) => s + x.rows, 0)).toBeGreaterThan(50_000);
        for (const x of read) {
          if (x.timestamp_nat !== undefined) expect(x.timestamp_nat, x.path).toBe(0);
          if (x.columns.includes('timestamp') && x.columns.includes('series_id') && x.rows > 0) {
            expect(x.columns.at(-1), x.path).toBe('period');
            expect(x.period_missing, x.path).toBe(0);
          }
        }
      }
    },
  );
});
