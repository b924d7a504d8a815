import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Duck, describeParquet } from '@asof/duck';
import { canonicalJson, finalizeManifest, manifestOutput, sha256Hex, writeManifest } from '@asof/manifest';
import type { Frequency, Manifest, ManifestOutput } from '@asof/schema';

export interface MiniSeries {
  series_id: string;
  frequency: Frequency;
  eval_target: boolean;
  universe_kind?: 'point_in_time' | 'static';
}

export interface MiniObservation {
  series_id: string;
  /** ISO instants (UTC). */
  timestamp: string;
  available_at: string;
  /** null: a withdrawal of the value published earlier for this timestamp (docs/decisions/0007). */
  value: number | null;
  available_at_basis?: string;
  source_ref?: string;
}

/**
 * Writes a hand-made universe folder (observations by frequency, series.parquet, manifest.json) in the
 * layout `asof build` produces, for tests and worked examples of the split's rules on a few rows.
 */
export async function writeMiniUniverse(
  dir: string,
  universe: { name: string; eval_start: string; series: MiniSeries[]; observations: MiniObservation[] },
): Promise<Manifest> {
  mkdirSync(dir, { recursive: true });
  const duck = await Duck.open({ threads: 1 });
  try {
    await duck.run(
      `CREATE TABLE obs (series_id VARCHAR, "timestamp" TIMESTAMPTZ, period_start TIMESTAMPTZ, available_at TIMESTAMPTZ,
        value DOUBLE, available_at_basis VARCHAR, source_ref VARCHAR)`,
    );
    for (const o of universe.observations) {
      await duck.run('INSERT INTO obs VALUES ($s, $t::TIMESTAMPTZ, NULL, $a::TIMESTAMPTZ, $v, $b, $r)', {
        s: o.series_id,
        t: o.timestamp,
        a: o.available_at,
        v: o.value,
        b: o.available_at_basis ?? 'vintage',
        r: o.source_ref ?? 'hand-made',
      });
    }
    await duck.run(
      `CREATE TABLE ser (series_id VARCHAR, source VARCHAR, source_key VARCHAR, title VARCHAR, unit VARCHAR,
        frequency VARCHAR, scope VARCHAR, category VARCHAR, detail_category VARCHAR, entity_id VARCHAR,
        entity_name VARCHAR, currency VARCHAR, seasonal_adjustment VARCHAR, fiscal_year_end VARCHAR,
        is_synthetic BOOLEAN, universe_kind VARCHAR, eval_target BOOLEAN)`,
    );
    for (const s of universe.series) {
      await duck.run(
        `INSERT INTO ser VALUES ($id, 'test', $id, $id, 'index', $f, 'Test', 'Test', 'Test', NULL, NULL, NULL, NULL,
          NULL, true, $k, $e)`,
        { id: s.series_id, f: s.frequency, k: s.universe_kind ?? 'point_in_time', e: s.eval_target },
      );
    }
    const frequencies = [...new Set(universe.series.map((s) => s.frequency))].sort();
    for (const f of frequencies) {
      mkdirSync(join(dir, 'observations', `frequency=${f}`), { recursive: true });
      await duck.writeParquet(
        `SELECT o.* FROM obs o JOIN ser s USING (series_id) WHERE s.frequency = $f ORDER BY series_id, "timestamp", available_at`,
        join(dir, 'observations', `frequency=${f}`, 'data.parquet'),
        { f },
      );
    }
    await duck.writeParquet(
      `SELECT s.*, min(o."timestamp") AS first_timestamp, max(o."timestamp") AS last_timestamp,
              count(DISTINCT o."timestamp") AS n_obs, count(o."timestamp") - count(DISTINCT o."timestamp") AS n_revisions
       FROM ser s LEFT JOIN obs o USING (series_id) GROUP BY ALL ORDER BY series_id`,
      join(dir, 'series.parquet'),
    );
  } finally {
    duck.close();
  }
  return writeUniverseManifest(dir, universe.name, { name: universe.name, eval_start: universe.eval_start });
}

/**
 * Hashes the universe files in `dir` (observations/frequency=* /data.parquet, series.parquet, tasks.parquet
 * when present) and writes its manifest.json: for universes assembled or altered outside `asof build`
 * (hand-made tests, the leakage canary's poisoned copy).
 */
export async function writeUniverseManifest(
  dir: string,
  name: string,
  config: Record<string, unknown>,
): Promise<Manifest> {
  const files: { path: string; table: string }[] = [];
  for (const part of readdirSync(join(dir, 'observations')).sort()) {
    files.push({ path: `observations/${part}/data.parquet`, table: 'observations' });
  }
  files.push({ path: 'series.parquet', table: 'series' });
  if (existsSync(join(dir, 'tasks.parquet'))) files.push({ path: 'tasks.parquet', table: 'tasks' });
  const duck = await Duck.open({ threads: 1 });
  const outputs: ManifestOutput[] = [];
  try {
    for (const f of files) {
      const file = join(dir, ...f.path.split('/'));
      outputs.push(await manifestOutput(dir, { ...f, ...(await describeParquet(duck, file)) }));
    }
    const manifest = finalizeManifest({
      manifest_version: 1,
      name,
      kind: 'universe',
      parent_dataset_id: null,
      created_by: {
        asof_version: '0.0.0-test',
        duckdb_version: await duck.version(),
        git_commit: null,
        git_dirty: null,
      },
      config,
      config_sha256: sha256Hex(canonicalJson(config)),
      registry: [],
      inputs: [],
      outputs,
      warnings: [],
      summary: {},
    });
    writeManifest(join(dir, 'manifest.json'), manifest);
    return manifest;
  } finally {
    duck.close();
  }
}
