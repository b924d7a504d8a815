import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck } from '@asof/duck';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asofIn, REPO } from './helpers.ts';
import { pythonWith, requirePython } from './python-available.ts';
import { defaultFixture, linkShared } from './shared-fixtures.ts';

// Issue 54 item 2: `asof export nixtla` read by Debian's pandas (row counts per series equal the series
// table's as-of-latest counts, and the as-of counts at --as-of), and `asof export qlib` read back by
// tests/qlib_read_back.py, a reader written from Qlib's documented layout (numpy, struct; no asof code):
// every value equals the universe's as-of-latest value to float32, every PIT chain the series' vintages.
// The universe is a small build with synthetic prices and EDGAR filings (under a second to build).
const work = realpathSync(mkdtempSync(join(tmpdir(), 'asof-interop-')));
process.env.ASOF_STATE_DIR = join(work, '.state');
const run = (...argv: string[]) => asofIn(work, ...argv);
const pandas = pythonWith('import pandas, numpy');
const hasPandas = requirePython(
  pandas,
  'python3-pandas and python3-numpy',
  'the Python reading of asof export nixtla/qlib',
);
const AS_OF = '2018-06-30T00:00:00Z';

beforeAll(async () => {
  writeFileSync(
    join(work, 'mini.json'),
    JSON.stringify({
      name: 'mini',
      eval_start: '2020-01-01',
      sources: {
        embedded: {
          real: { sp500: false, stocks: false, us_employment: false, unemployment_by_industry: false },
          synthetic: { seed: 7, start: '2015-01-02', end: '2021-12-31', instruments: 4 },
        },
        edgar: { synthetic: { seed: 7, companies: 3, first_fiscal_year: 2016, fiscal_years: 4 } },
        fred: { synthetic: { seed: 7, start: '2012-01-01', end: '2021-12-31', count: 2 } },
        prices: { synthetic: { seed: 7 }, total_return: true },
      },
    }),
  );
  for (const argv of [
    ['build', 'mini.json', '--out', 'u'],
    ['export', 'csv', '--manifest', 'u/manifest.json', '--out', 'u-csv'],
  ]) {
    const r = await run(...argv);
    expect(r.code, `asof ${argv.join(' ')}\n${r.stderr}`).toBe(0);
  }
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Manifest {
  dataset_id: string;
  parent_dataset_id: string | null;
  kind: string;
  outputs: { path: string; table: string; rows: number }[];
  warnings: { code: string; message: string; count?: number }[];
  summary: Record<string, unknown>;
}
const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(work, dir, 'manifest.json'), 'utf8'));

function readQlibBack(qlib: string, csv: string, asOf?: string) {
  const read = spawnSync(
    pandas!,
    [join(REPO, 'tests', 'qlib_read_back.py'), qlib, csv, ...(asOf ? [asOf] : [])],
    {
      encoding: 'utf8',
      cwd: work,
    },
  );
  expect(read.status, read.stdout + read.stderr).toBe(0);
  return JSON.parse(read.stdout);
}

function python(code: string, ...args: string[]) {
  const r = spawnSync(pandas!, ['-c', code, ...args], { encoding: 'utf8', cwd: work });
  expect(r.status, r.stderr + r.stdout).toBe(0);
  return JSON.parse(r.stdout);
}

// Per series: rows in the Nixtla CSVs; the universe's as-of counts computed by pandas from the CSV export
// (latest available_at <= T per timestamp, withdrawals dropped); the series table's n_obs; and checks.
const NIXTLA = `
import glob, json, sys, pandas as pd
d, t, csv = sys.argv[1], sys.argv[2], sys.argv[3]
frames = {f: pd.read_csv(f, low_memory=False) for f in sorted(glob.glob(f"{d}/nixtla_*.csv"))}
n = pd.concat(frames.values(), ignore_index=True)
obs = pd.concat([pd.read_csv(f, low_memory=False) for f in glob.glob(f"{csv}/observations/*/*.csv")])
obs["a"] = pd.to_datetime(obs["available_at"], utc=True)
if t != "latest":
    obs = obs[obs["a"] <= pd.Timestamp(t)]
obs = obs.sort_values(["series_id", "timestamp", "a"], kind="stable")
cur = obs.groupby(["series_id", "timestamp"]).tail(1)
cur = cur[cur["value"].notna()]
series = pd.read_csv(f"{csv}/series.csv")
sorted_ok = all(
    list(zip(df["unique_id"], df["ds"])) == sorted(zip(df["unique_id"], df["ds"])) for df in frames.values()
)
one_freq = all(df["frequency"].nunique() == 1 and f.endswith(f"nixtla_{df['frequency'].iloc[0]}.csv") for f, df in frames.items())
print(json.dumps({
  "files": [f.split("/")[-1] for f in frames],
  "columns": list(n.columns),
  "rows": len(n),
  "y_null": int(n["y"].isna().sum()),
  "ds_bad": int(pd.to_datetime(n["ds"], format="%Y-%m-%d", errors="coerce").isna().sum()),
  "sorted": sorted_ok,
  "one_frequency_per_file": one_freq,
  "nixtla": {k: int(v) for k, v in n.groupby("unique_id").size().items()},
  "universe": {k: int(v) for k, v in cur.groupby("series_id").size().items()},
  "n_obs": {k: int(v) for k, v in zip(series["series_id"], series["n_obs"]) if v > 0},
}))
`;

describe('asof export nixtla and qlib', { timeout: 300_000 }, () => {
  it("writes Nixtla's long format per frequency; pandas counts equal the as-of-latest counts", async () => {
    const r = await run('export', 'nixtla', '--manifest', 'u/manifest.json', '--out', 'nixtla');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^next: asof verify nixtla\/manifest\.json/m);
    const m = manifestOf('nixtla');
    expect(m.kind).toBe('nixtla-export');
    expect(m.parent_dataset_id).toBe(manifestOf('u').dataset_id);
    expect(m.outputs.map((o) => o.path)).toContain('nixtla_BD.parquet');
    expect((await run('verify', 'nixtla/manifest.json')).code).toBe(0);
    // Each Parquet file holds the rows of its CSV twin, with ds a DATE and y a DOUBLE.
    const duck = await Duck.open({ threads: 1 });
    try {
      for (const o of m.outputs.filter((x) => x.path.endsWith('.parquet'))) {
        const pq = `read_parquet('${join(work, 'nixtla', o.path)}')`;
        const csv = `read_csv('${join(work, 'nixtla', o.path.replace('.parquet', '.csv'))}', header = true, all_varchar = true, delim = ',', quote = '"', escape = '"')`;
        const r = await duck.one<{ rows: bigint; differ: bigint; types: string }>(
          `SELECT (SELECT count(*) FROM ${pq}) AS rows,
                  (SELECT count(*) FROM (SELECT unique_id, ds, y FROM ${pq} EXCEPT SELECT unique_id, ds::DATE, y::DOUBLE FROM ${csv})) AS differ,
                  (SELECT string_agg(column_type, ',') FROM (DESCRIBE SELECT ds, y FROM ${pq})) AS types`,
        );
        expect([Number(r.rows), Number(r.differ), r.types], o.path).toEqual([o.rows, 0, 'DATE,DOUBLE']);
      }
    } finally {
      duck.close();
    }
    if (!hasPandas) return;
    const got = python(NIXTLA, 'nixtla', 'latest', 'u-csv');
    expect(got.files).toEqual(['nixtla_A.csv', 'nixtla_BD.csv', 'nixtla_M.csv', 'nixtla_Q.csv']);
    expect(got.columns.slice(0, 4)).toEqual(['unique_id', 'ds', 'y', 'frequency']);
    expect(got.columns).toEqual(expect.arrayContaining(['unit', 'scope', 'category', 'detail_category']));
    expect([got.y_null, got.ds_bad, got.sorted, got.one_frequency_per_file]).toEqual([0, 0, true, true]);
    expect(got.nixtla).toEqual(got.universe);
    expect(got.nixtla).toEqual(got.n_obs);
    expect(got.rows).toBe(m.summary.rows);
  });

  it('exports the view as known at --as-of', async () => {
    const r = await run(
      'export',
      'nixtla',
      '--manifest',
      'u/manifest.json',
      '--out',
      'nixtla-asof',
      '--as-of',
      AS_OF,
    );
    expect(r.code, r.stderr).toBe(0);
    if (!hasPandas) return;
    const got = python(NIXTLA, 'nixtla-asof', AS_OF, 'u-csv');
    expect(got.nixtla).toEqual(got.universe);
    expect(got.rows).toBeLessThan(python(NIXTLA, 'nixtla', 'latest', 'u-csv').rows);
  });

  it("writes Qlib's layout; a reader of Qlib's documented format finds every value", async () => {
    const r = await run('export', 'qlib', '--manifest', 'u/manifest.json', '--out', 'qlib', '--json');
    expect(r.code, r.stderr).toBe(0);
    const m = manifestOf('qlib');
    expect(m.kind).toBe('qlib-export');
    expect(m.parent_dataset_id).toBe(manifestOf('u').dataset_id);
    const paths = m.outputs.map((o) => o.path);
    expect(paths).toEqual(
      expect.arrayContaining(['calendars/day.txt', 'instruments/all.txt', 'features/syna/close.day.bin']),
    );
    expect(paths).toEqual(
      expect.arrayContaining(['financial/9990000001/revenue_q.data', 'financial/9990000001/revenue_q.index']),
    );
    const float32 = m.summary.float32 as { values: number; exceeding: number; tolerance: number };
    expect(float32.values).toBeGreaterThan(0);
    expect(m.warnings.some((w) => w.code === 'FLOAT32_ROUNDING')).toBe(float32.exceeding > 0);
    expect(JSON.parse(r.stdout).summary.float32).toEqual(float32);
    expect((await run('verify', 'qlib/manifest.json')).code).toBe(0);
    if (!hasPandas) return;
    const got = readQlibBack('qlib', 'u-csv');
    expect(got.problem_count).toBe(0);
    expect(got.feature_values).toBe(float32.values);
    expect(got.pit_records).toBe(m.summary.pit_records);
    expect(got.instruments).toBe(m.summary.instruments);
    expect(got.calendar_days).toBe(m.summary.calendar_days);
    expect(got.pit_periods).toBeGreaterThan(0);
  });

  it('writes the same files again, and the store as known at --as-of', async () => {
    expect((await run('export', 'qlib', '--manifest', 'u/manifest.json', '--out', 'qlib-again')).code).toBe(
      0,
    );
    expect(manifestOf('qlib-again').dataset_id).toBe(manifestOf('qlib').dataset_id);
    const r = await run(
      'export',
      'qlib',
      '--manifest',
      'u/manifest.json',
      '--out',
      'qlib-asof',
      '--as-of',
      AS_OF,
    );
    expect(r.code, r.stderr).toBe(0);
    const m = manifestOf('qlib-asof');
    expect(m.summary.pit_records).toBeLessThan(manifestOf('qlib').summary.pit_records as number);
    if (!hasPandas) return;
    const got = readQlibBack('qlib-asof', 'u-csv', AS_OF);
    expect(got.problem_count).toBe(0);
    expect(got.pit_records).toBe(m.summary.pit_records);
  });

  it('refuses an unknown option and a universe with nothing for Qlib', async () => {
    const bad = await run('export', 'qlib', '--manifest', 'u/manifest.json', '--out', 'x', '--k', '3');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--k is not an option of 'export qlib'/);
    const csv = await run('export', 'nixtla', '--manifest', 'u-csv/manifest.json', '--out', 'x');
    expect([csv.code, csv.stderr]).toEqual([
      2,
      expect.stringMatching(/INTEROP_NOT_A_UNIVERSE|not a universe's/),
    ]);
    writeFileSync(
      join(work, 'fred.json'),
      JSON.stringify({
        name: 'fred',
        eval_start: '2020-01-01',
        sources: { fred: { synthetic: { seed: 7, start: '2012-01-01', end: '2021-12-31', count: 2 } } },
      }),
    );
    expect((await run('build', 'fred.json', '--out', 'f')).code).toBe(0);
    const none = await run('export', 'qlib', '--manifest', 'f/manifest.json', '--out', 'x');
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/no daily price series/)]);
  });
});

// The default universe (shared fixture): 204 instruments, 50 EDGAR filers, and a withdrawn FRED value.
describe('asof export nixtla and qlib of the default universe', { timeout: 600_000 }, () => {
  beforeAll(async () => {
    linkShared(work, { d: (await defaultFixture()).universe });
    const r = await run('export', 'csv', '--manifest', 'd/manifest.json', '--out', 'd-csv');
    expect(r.code, r.stderr).toBe(0);
  }, 600_000);

  it('Nixtla: as many rows per series as the as-of-latest values, withdrawals dropped', async () => {
    expect((await run('export', 'nixtla', '--manifest', 'd/manifest.json', '--out', 'd-nixtla')).code).toBe(
      0,
    );
    if (!hasPandas) return;
    const got = python(NIXTLA, 'd-nixtla', 'latest', 'd-csv');
    expect(got.nixtla).toEqual(got.universe);
    expect([got.y_null, got.ds_bad, got.sorted, got.one_frequency_per_file]).toEqual([0, 0, true, true]);
    // n_obs counts a withdrawn timestamp; the export has no row for it.
    const fewer = Object.keys(got.n_obs).filter((id) => (got.nixtla[id] ?? 0) !== got.n_obs[id]);
    for (const id of fewer) expect(got.nixtla[id] ?? 0).toBeLessThan(got.n_obs[id]);
    expect(fewer.length).toBeGreaterThan(0);
  });

  it('Qlib: every feature value and PIT chain reads back', async () => {
    expect((await run('export', 'qlib', '--manifest', 'd/manifest.json', '--out', 'd-qlib')).code).toBe(0);
    const m = manifestOf('d-qlib');
    if (!hasPandas) return;
    const got = readQlibBack('d-qlib', 'd-csv');
    expect(got.problem_count).toBe(0);
    expect(got.feature_values).toBe((m.summary.float32 as { values: number }).values);
    expect([got.instruments, got.pit_records]).toEqual([m.summary.instruments, m.summary.pit_records]);
  });
});
