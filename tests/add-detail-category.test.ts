// README.md's "Adding a detail category", followed literally for an evaluated extension unit. The steps edit
// packages/taxonomy/registry/, which the sources read (the FRED catalog maps ids to units), so they run in a
// scratch copy of the repository — its packages, scripts, pipelines and golden manifest, with node_modules
// linked back to this checkout's and `@asof/*` pointing at the copied packages — never in this working tree.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import type { SeriesInput } from '@asof/schema';
import { loadRegistry, unitKey, unitTasks } from '@asof/taxonomy';
import { assertKnownUnits, createStagingTables, loadRegistryTables, StageSink } from '@asof/transform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, SHARED } from './helpers.ts';

/** The rows README.md's section gives for each registry file, from its ```tsv <file> blocks. */
function readmeRows(): Map<string, string[]> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('## Adding a detail category');
  expect(start, 'README.md has an "Adding a detail category" section').toBeGreaterThanOrEqual(0);
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  const rows = new Map<string, string[]>();
  for (const m of section.matchAll(/^([ \t]*)```tsv ([\w.-]+)\n([\s\S]*?)^[ \t]*```/gm)) {
    const lines = m[3]
      .split('\n')
      .map((l) => (l.startsWith(m[1]) ? l.slice(m[1].length) : l))
      .filter((l) => l.trim() !== '');
    rows.set(m[2], [...(rows.get(m[2]) ?? []), ...lines]);
  }
  return rows;
}

/** Copies what a build, the taxonomy tests and `npm run golden:default` need into `copy`. */
function scratchCheckout(copy: string): void {
  mkdirSync(copy, { recursive: true });
  const skip = (src: string) => !src.split(sep).includes('node_modules');
  for (const f of ['package.json', 'tsconfig.base.json', 'biome.json']) cpSync(join(REPO, f), join(copy, f));
  for (const d of ['packages', 'pipelines', 'scripts', 'manifests'])
    cpSync(join(REPO, d), join(copy, d), { recursive: true, filter: skip });
  // A package's own node_modules holds dependencies npm did not hoist (report's vega-lite): linked too.
  for (const pkg of readdirSync(join(REPO, 'packages'))) {
    const own = join(REPO, 'packages', pkg, 'node_modules');
    if (!existsSync(own)) continue;
    mkdirSync(join(copy, 'packages', pkg, 'node_modules'));
    for (const e of readdirSync(own)) {
      if (e !== '.vite') symlinkSync(join(own, e), join(copy, 'packages', pkg, 'node_modules', e));
    }
  }
  const modules = join(REPO, 'node_modules');
  mkdirSync(join(copy, 'node_modules', '@asof'), { recursive: true });
  for (const e of readdirSync(modules)) {
    if (e !== '@asof') symlinkSync(join(modules, e), join(copy, 'node_modules', e));
  }
  // Workspace links are relative (../../packages/<dir>): the same links in the copy reach the copied packages.
  for (const e of readdirSync(join(modules, '@asof'))) {
    const target = readlinkSync(join(modules, '@asof', e));
    if (existsSync(join(copy, 'node_modules', '@asof', target)))
      symlinkSync(target, join(copy, 'node_modules', '@asof', e));
  }
}

interface Run {
  code: number | null;
  stdout: string;
  /** stdout and stderr, for failure messages. */
  out: string;
}

function run(cwd: string, command: string, args: string[]): Run {
  const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, out: `${r.stdout}\n${r.stderr}` };
}

const work = mkdtempSync(join(tmpdir(), 'asof-add-unit-'));
const copy = join(work, 'main');
const registryDir = join(copy, 'packages', 'taxonomy', 'registry');
const asofIn = (args: string[]) =>
  run(copy, process.execPath, [join(copy, 'packages/cli/bin/asof.mjs'), ...args]);
let unit: { scope: string; category: string; detail_category: string; frequency: 'M' };
let fredId: string;
/** The copy's registry before steps 1–3. */
let registryBefore: ReturnType<typeof loadRegistry>;

/**
 * Takes the README's rows out of the copy's registry files, for a checkout where someone has followed the steps
 * by hand (the rows are already there: appended again they would be duplicate units). Returns whether any was.
 */
function removeReadmeRows(rows: Map<string, string[]>): boolean {
  let found = false;
  for (const [file, lines] of rows) {
    const path = join(registryDir, file);
    const text = readFileSync(path, 'utf8');
    const kept = text.split('\n').filter((l) => !lines.includes(l));
    if (kept.length === text.split('\n').length) continue;
    found = true;
    writeFileSync(path, kept.join('\n'));
  }
  return found;
}

beforeAll(() => {
  scratchCheckout(copy);
  // ../shared beside the copy, as beside the repository (the registry-equals-FinVerse test reads it).
  if (existsSync(SHARED)) symlinkSync(SHARED, join(work, 'shared'));
  const rows = readmeRows();
  expect([...rows.keys()].sort()).toEqual(['assignments.tsv', 'fred-catalog.tsv', 'units.tsv']);
  const [scope, category, detail_category, frequency, evalTarget, finverse] = rows
    .get('units.tsv')![0]
    .split('\t');
  expect({ frequency, evalTarget, finverse }, "the README's example is an evaluated extension unit").toEqual({
    frequency: 'M',
    evalTarget: 'yes',
    finverse: 'no',
  });
  unit = { scope, category, detail_category, frequency: 'M' };
  fredId = rows.get('fred-catalog.tsv')![0].split('\t')[0];
  // Followed by hand already: the golden manifest of the registry without the rows is step 5's "before".
  if (removeReadmeRows(rows)) {
    const g = run(copy, 'npm', ['run', 'golden:default']);
    expect(g.code, g.out).toBe(0);
  }
  registryBefore = loadRegistry(registryDir);
  // Steps 1–3, literally: append the README's rows to the files it names.
  for (const [file, lines] of rows) appendFileSync(join(registryDir, file), `${lines.join('\n')}\n`);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("README's adding a detail category, for an evaluated extension unit", () => {
  it('is refused by a build before the registry has it, naming the nearest valid names', async () => {
    const series: SeriesInput = {
      series_id: 'test:hourly-earnings',
      source: 'test',
      source_key: 'x',
      title: 'x',
      unit: 'USD',
      ...unit,
      entity_id: null,
      entity_name: null,
      currency: 'USD',
      seasonal_adjustment: null,
      fiscal_year_end: null,
      is_synthetic: false,
      universe_kind: 'point_in_time',
    };
    const registry = registryBefore;
    const duck = await Duck.open();
    try {
      await createStagingTables(duck);
      await loadRegistryTables(duck, registry);
      const sink = await StageSink.create(duck);
      sink.addSeries(series);
      sink.close();
      await expect(assertKnownUnits(duck, registry)).rejects.toThrow(new RegExp(unit.detail_category));
    } finally {
      duck.close();
    }
  });

  it('steps 1–3 load as an evaluated extension unit with its tasks and a FRED mapping', () => {
    const r = loadRegistry(registryDir);
    const u = r.units.find((x) => x.key === unitKey(unit));
    expect(u).toMatchObject({ eval_target: true, finverse: false });
    expect(r.fredCatalog.find((c) => c.series_id === fredId)).toMatchObject(unit);
    // M4 has four (p,h) pairs: HR, MASE_rel and MASE_abs give 4 each, plus one MASE_ori.
    expect(unitTasks(r, unitKey(unit))).toHaveLength(13);
    const doc = asofIn(['taxonomy', '--json']);
    expect(doc.code, doc.out).toBe(0);
    expect(JSON.parse(doc.stdout).units).toContainEqual({
      ...unit,
      eval_target: true,
      finverse: false,
    });
  });

  it('step 4: the registry checks (the taxonomy package tests) pass on the edited registry', () => {
    const r = run(join(copy, 'packages', 'taxonomy'), process.execPath, [
      join(REPO, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
    ]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/Tests\s+\S*\d+ passed/);
    expect(r.out).not.toMatch(/failed/);
  }, 300_000);

  it("a build maps the new FRED id's file into the unit as an eval target with the unit's tasks", async () => {
    const raw = join(copy, 'raw', 'fred');
    mkdirSync(raw, { recursive: true });
    const lines = ['observation_date,' + fredId];
    for (let i = 0; i < 20 * 12; i++) {
      const month = `${2005 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
      lines.push(`${month},${(16 + 0.03 * i + 0.05 * Math.sin(i)).toFixed(2)}`);
    }
    writeFileSync(join(raw, `fredgraph_${fredId}_vintage_2025-02.csv`), `${lines.join('\n')}\n`);
    writeFileSync(
      join(copy, 'hourly-earnings.json'),
      JSON.stringify({
        name: 'hourly-earnings',
        eval_start: '2020-01-01',
        sources: { fred: { raw_dir: 'raw/fred' } },
      }),
    );
    const b = asofIn(['build', 'hourly-earnings.json', '--out', 'out/hourly-earnings']);
    expect(b.code, b.out).toBe(0);
    const out = join(copy, 'out', 'hourly-earnings');
    const duck = await Duck.open();
    try {
      const series = await duck.all<Record<string, unknown>>(
        `SELECT series_id, scope, category, detail_category, frequency, eval_target
         FROM read_parquet(${quoteLiteral(join(out, 'series.parquet'))})`,
      );
      expect(series).toEqual([{ series_id: `fred:${fredId}`, ...unit, eval_target: true }]);
      const tasks = await duck.all<{ key: string }>(
        `SELECT concat_ws('|', aspect, metric, p, h, p_steps, h_steps) AS key
         FROM read_parquet(${quoteLiteral(join(out, 'tasks.parquet'))}) ORDER BY key`,
      );
      const want = unitTasks(loadRegistry(registryDir), unitKey(unit))
        .map((t) => [t.aspect, t.metric, t.p, t.h, t.p_steps, t.h_steps].filter((x) => x !== null).join('|'))
        .sort();
      expect(tasks.map((t) => t.key)).toEqual(want);
      expect(want).toHaveLength(13);
    } finally {
      duck.close();
    }
    const cov = asofIn(['taxonomy', '--coverage', 'out/hourly-earnings/manifest.json', '--json']);
    expect(cov.code, cov.out).toBe(0);
    const units = JSON.parse(cov.stdout).units as {
      detail_category: string;
      series: number;
    }[];
    expect(units.find((u) => u.detail_category === unit.detail_category)?.series).toBe(1);
  }, 300_000);

  it('step 5: npm run golden:default rewrites only the registry hashes and dataset_id of the golden manifest', () => {
    const before = JSON.parse(readFileSync(join(copy, 'manifests', 'default.json'), 'utf8'));
    // The user's own out/default: the golden's build goes elsewhere and leaves it as it is.
    const mine = join(copy, 'out', 'default', 'mine.txt');
    mkdirSync(dirname(mine), { recursive: true });
    writeFileSync(mine, 'my own build\n');
    const g = run(copy, 'npm', ['run', 'golden:default']);
    expect(g.code, g.out).toBe(0);
    expect(readdirSync(join(copy, 'out', 'default'))).toEqual(['mine.txt']);
    expect(existsSync(join(copy, 'out', '.asof', 'default'))).toBe(false);
    const after = JSON.parse(readFileSync(join(copy, 'manifests', 'default.json'), 'utf8'));
    const changed = Object.keys(after).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]));
    expect(changed.sort()).toEqual(['dataset_id', 'registry']);
    const edited = (after.registry as { name: string; sha256: string }[])
      .filter((f) => before.registry.find((o: { name: string }) => o.name === f.name)?.sha256 !== f.sha256)
      .map((f) => f.name);
    expect(edited).toEqual(['assignments.tsv', 'fred-catalog.tsv', 'units.tsv']);
    // The golden is the build's own manifest: the golden test compares a fresh default build with it.
    expect(after.outputs).toEqual(before.outputs);
  }, 600_000);
});
