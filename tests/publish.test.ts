import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { Croissant, testOnlyMarker } from '@asof/publish';
import { Manifest } from '@asof/schema';
import { writeSyntheticRawUniverse } from '@asof/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { asofIn, SCRATCH, SHARED } from './helpers.ts';
import { pythonWith, requirePython } from './python-available.ts';
import { defaultFixture, linkShared, tinyFixture } from './shared-fixtures.ts';

// Issue 54 item 1 (docs/decisions/0066): `asof publish` writes a Hugging Face dataset folder from the default
// universe and from the README's split ("Your first benchmark"), with a card whose YAML parses, a croissant.json
// with every property Croissant 1.1 requires, and sha256s that match; a universe read from a folder marked
// test-only is refused unless --private.
const work = realpathSync(mkdtempSync(join(SCRATCH, 'publish-')));
const run = (...argv: string[]) => asofIn(work, ...argv);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** Every file under `dir` but manifest.json, relative with '/'. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.filter((f) => f !== 'manifest.json').sort();
}

/** The folder contract: manifest, card, croissant.json, each checked against the files. */
function checkPublished(dir: string, parentManifest: string, configs: string[]): Record<string, unknown> {
  const parent = Manifest.parse(JSON.parse(readFileSync(join(work, parentManifest), 'utf8')));
  const manifest = Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
  expect(manifest.kind).toBe('publish');
  expect(manifest.parent_dataset_id).toBe(parent.dataset_id);
  expect(manifest.outputs.map((o) => o.path).sort()).toEqual(filesUnder(dir));
  for (const o of manifest.outputs) expect(sha256(join(dir, o.path)), o.path).toBe(o.sha256);
  for (const c of configs) {
    expect(manifest.outputs.find((o) => o.path === `data/${c}/train-00000.parquet`)?.table).toBe(c);
  }
  // Every observation of the parent (a split: its training observations), every vintage, is published.
  const rows = (m: typeof parent, table: string) =>
    m.outputs.filter((o) => o.table === table && o.path.endsWith('.parquet')).reduce((n, o) => n + o.rows, 0);
  expect(rows(manifest, 'observations')).toBe(
    rows(parent, parent.kind === 'split' ? 'train_observations' : 'observations'),
  );
  // The card: YAML front matter with the Hub's fields, then the body.
  const card = readFileSync(join(dir, 'README.md'), 'utf8');
  const front = parse(card.split(/^---$/m)[1]) as Record<string, unknown>;
  expect((front.configs as { config_name: string }[]).map((c) => c.config_name)).toEqual(configs);
  expect(front).toMatchObject({ license: 'other', task_categories: ['time-series-forecasting'] });
  for (const key of ['license_name', 'license_details', 'tags', 'pretty_name', 'dataset_info'])
    expect(front[key], key).toBeDefined();
  for (const w of parent.warnings) expect(card).toContain(`**${w.code}**`);
  expect(card).toMatch(/How `available_at` works/);
  expect(card).toMatch(/## Citation/);
  expect(card).not.toMatch(/docs\/(glossary|decisions)/);
  // croissant.json: Croissant 1.1's required properties, and each file's sha256.
  const raw = JSON.parse(readFileSync(join(dir, 'croissant.json'), 'utf8'));
  const croissant = Croissant.parse(raw);
  expect(croissant['prov:wasDerivedFrom']['@id']).toContain(parent.dataset_id);
  expect(croissant.version).toBe('1.0.0');
  for (const d of croissant.distribution) {
    if (d['@type'] === 'cr:FileObject') expect(sha256(join(dir, d.contentUrl)), d.contentUrl).toBe(d.sha256);
  }
  expect(croissant.recordSet.map((r) => r['@id'])).toEqual([...configs, 'splits']);
  checkJsonLd(join(dir, 'croissant.json'));
  checkMlcroissant(join(dir, 'croissant.json'));
  return raw;
}

/** croissant.json parses and expands as JSON-LD (rdflib), where Debian's python3-rdflib is installed. */
function checkJsonLd(path: string): void {
  const python = pythonWith('import rdflib');
  if (!requirePython(python, 'python3-rdflib', "croissant.json's JSON-LD check")) return;
  const code = `
import sys, rdflib
g = rdflib.Graph()
g.parse(sys.argv[1], format="json-ld")
conforms = list(g.objects(None, rdflib.URIRef("http://purl.org/dc/terms/conformsTo")))
sha = list(g.objects(None, rdflib.URIRef("https://schema.org/sha256")))
assert str(conforms[0]) == "http://mlcommons.org/croissant/1.1", conforms
print(len(g), len(sha))
`;
  const r = spawnSync(python!, ['-c', code, path], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const [triples, hashes] = r.stdout.trim().split(' ').map(Number);
  expect(triples).toBeGreaterThan(50);
  expect(hashes).toBeGreaterThan(0);
}

/** `mlcroissant validate`, when it is on PATH. */
function checkMlcroissant(path: string): void {
  const which = spawnSync('sh', ['-c', 'command -v mlcroissant'], { encoding: 'utf8' });
  if (which.status !== 0) {
    console.warn('skipping mlcroissant validate: mlcroissant is not on PATH (pip install mlcroissant)');
    return;
  }
  const r = spawnSync('mlcroissant', ['validate', '--jsonld', path], { encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
}

beforeAll(async () => {
  const [d, tiny] = await Promise.all([defaultFixture(), tinyFixture()]);
  linkShared(work, { default: d.universe, tiny: tiny.universe, 'tiny-split': tiny.split });
  // The README's split ("Your first benchmark").
  const r = await run(
    'split',
    '--manifest',
    'default/manifest.json',
    '--out',
    'first-split',
    '--model-cutoff',
    '2021-12-31',
    '--run-date',
    '2025-12-31',
    '--series',
    'syn:fred:*',
  );
  expect(r.code, r.stderr).toBe(0);
}, 600_000);

describe('asof publish', () => {
  it('publishes the default universe: observations, series, tasks, card, croissant.json, manifest', async () => {
    const r = await run('publish', '--manifest', 'default/manifest.json', '--out', 'default-hf');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^next: asof verify /m);
    checkPublished(join(work, 'default-hf'), 'default/manifest.json', ['observations', 'series', 'tasks']);
    expect(existsSync(join(work, 'default-hf', 'tasks.yaml'))).toBe(false);
    const v = await run('verify', 'default-hf/manifest.json');
    expect(v.code, v.stderr).toBe(0);
  });

  it("publishes the README split with --csv: fev's snapshot and tasks.yaml, CSV twins with asof's instants", async () => {
    const r = await run(
      'publish',
      '--manifest',
      'first-split/manifest.json',
      '--out',
      'first-split-hf',
      '--csv',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const dir = join(work, 'first-split-hf');
    const configs = ['observations', 'series', 'tasks', 'snapshot'];
    checkPublished(dir, 'first-split/manifest.json', configs);
    for (const c of configs) expect(existsSync(join(dir, `data/${c}/train-00000.csv`)), c).toBe(true);
    const tasks = (
      parse(readFileSync(join(dir, 'tasks.yaml'), 'utf8')) as { tasks: Record<string, unknown>[] }
    ).tasks;
    expect(tasks.map((t) => t.series_frequency).sort()).toEqual(['M', 'Q']);
    for (const t of tasks) {
      for (const key of [
        'dataset_path',
        'dataset_config',
        'horizon',
        'num_windows',
        'initial_cutoff',
        'seasonality',
        'eval_metric',
        'quantile_levels',
        'target',
      ])
        expect(t[key], key).toBeDefined();
      expect(t.dataset_config).toBe('snapshot');
    }
    expect(tasks.find((t) => t.series_frequency === 'M')).toMatchObject({ horizon: 12, seasonality: 12 });
    // The CSVs: a header row, instants as `asof export csv` writes them, lists as JSON arrays.
    const obs = readFileSync(join(dir, 'data/observations/train-00000.csv'), 'utf8').split('\n');
    expect(obs[0]).toBe(
      'series_id,frequency,timestamp,period_start,available_at,value,available_at_basis,source_ref',
    );
    const first = obs[1].split(',');
    expect(first[2]).toMatch(ISO);
    expect(first[4]).toMatch(ISO);
    const snap = readFileSync(join(dir, 'data/snapshot/train-00000.csv'), 'utf8').split('\n');
    expect(snap[0]).toBe('id,frequency,timestamp,target');
    expect(snap.filter((l) => l.startsWith('syn:fred:')).length).toBe(24);
    const cell = /^[^,]+,\w+,"(\[[^\]]*\])"/.exec(snap[1])?.[1] ?? '[]';
    const ts = JSON.parse(cell.replace(/""/g, '"')) as string[];
    expect(ts[0]).toMatch(ISO);
    // fev's windows lie inside the history known at the training cutoff: initial_cutoff counts back from
    // each series' end, and every series of the task's frequency is long enough for its windows and a step
    // of context; no timestamp of the snapshot is past the split's first origin.
    const series = snap.slice(1).filter((l) => l !== '');
    for (const t of tasks) {
      const need = (t.horizon as number) * (t.num_windows as number);
      expect(t.initial_cutoff, String(t.series_frequency)).toBe(-need);
      const rows = series.filter((l) => l.split(',')[1] === t.series_frequency);
      expect(rows.length).toBeGreaterThan(0);
      for (const l of rows) {
        const stamps = JSON.parse(/"(\[[^\]]*\])"/.exec(l)![1].replace(/""/g, '"')) as string[];
        expect(stamps.length, l.split(',')[0]).toBeGreaterThan(need);
        expect(stamps.at(-1)! < '2020-01-01T05:00:00.000000Z', l.split(',')[0]).toBe(true);
      }
    }
  });

  it('publishes the tiny universe with --csv; publishing again gives a patch version', async () => {
    expect((await run('publish', '--manifest', 'tiny/manifest.json', '--out', 'tiny-hf', '--csv')).code).toBe(
      0,
    );
    checkPublished(join(work, 'tiny-hf'), 'tiny/manifest.json', ['observations', 'series', 'tasks']);
    const again = await run('publish', '--manifest', 'tiny/manifest.json', '--out', 'tiny-hf', '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).version).toBe('1.0.1');
    // Semver from the rows (docs/decisions/0066): the tiny split's training rows, then the whole tiny universe
    // (every row kept, rows added: minor), then the default universe (the tiny rows gone: major).
    const versions: string[] = [];
    for (const m of ['tiny-split', 'tiny', 'default']) {
      const r = await run('publish', '--manifest', `${m}/manifest.json`, '--out', 'versions-hf', '--json');
      expect(r.code, r.stderr).toBe(0);
      versions.push(JSON.parse(r.stdout).version);
    }
    expect(versions).toEqual(['1.0.0', '1.1.0', '2.0.0']);
    // A universe cannot replace a published folder by mistake: the output kind is checked.
    const clash = await run('publish', '--manifest', 'tiny/manifest.json', '--out', 'tiny');
    expect(clash.code).toBe(2);
  });

  it('refuses a universe read from a folder marked test-only, naming it and --private; --private publishes it', async () => {
    const raw = join(work, 'archive', 'raw');
    mkdirSync(raw, { recursive: true });
    writeSyntheticRawUniverse(raw, { stage: 1, instruments: 2, companies: 2, fredSeries: 2 });
    writeFileSync(
      join(work, 'archive', 'PROVENANCE.md'),
      'Use these files **only as test fixtures**; do not redistribute as a dataset.\n',
    );
    const b = await run('build', 'archive/raw/pipeline.json', '--out', 'archive-u');
    expect(b.code, b.stderr).toBe(0);
    const refused = await run('publish', '--manifest', 'archive-u/manifest.json', '--out', 'archive-hf');
    expect(refused.code).toBe(2);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(join(raw, 'edgar'));
    expect(lines[0]).toContain('--private');
    expect(existsSync(join(work, 'archive-hf'))).toBe(false);
    const json = await run(
      'publish',
      '--manifest',
      'archive-u/manifest.json',
      '--out',
      'archive-hf',
      '--json',
    );
    expect(JSON.parse(json.stdout).error.code).toBe('PUBLISH_TEST_ONLY_INPUT');
    const ok = await run(
      'publish',
      '--manifest',
      'archive-u/manifest.json',
      '--out',
      'archive-hf',
      '--private',
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(work, 'archive-hf', 'manifest.json'), 'utf8')).config.private).toBe(
      true,
    );
    // A split names its universe only by dataset_id: its series' terms are checked on the universe given.
    const split = await run('split', '--manifest', 'archive-u/manifest.json', '--out', 'archive-split');
    expect(split.code, split.stderr).toBe(0);
    const code = async (...extra: string[]) => {
      const r = await run('publish', '--manifest', 'archive-split/manifest.json', '--out', 'as-hf', ...extra);
      return r.code === 0 ? 'ok' : JSON.parse(r.stdout).error.code;
    };
    expect(await code('--json')).toBe('PUBLISH_UNIVERSE_NEEDED');
    expect(await code('--universe', 'archive-u/manifest.json', '--json')).toBe('PUBLISH_TEST_ONLY_INPUT');
    expect(await code('--universe', 'tiny/manifest.json', '--json')).toBe('PUBLISH_UNIVERSE_MISMATCH');
    expect(await code('--private')).toBe('ok');
  });

  it.skipIf(!existsSync(join(SHARED, 'fixtures', 'real-archive')))(
    `marks every raw folder of ${join(SHARED, 'fixtures', 'real-archive')} test-only by its PROVENANCE.md`,
    () => {
      for (const sub of ['sec', 'macro', 'prices', 'membership']) {
        expect(testOnlyMarker(join(SHARED, 'fixtures', 'real-archive', sub))).toBe(
          join(SHARED, 'fixtures', 'real-archive', 'PROVENANCE.md'),
        );
      }
    },
  );
});
