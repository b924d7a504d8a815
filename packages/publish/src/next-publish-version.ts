import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Duck, quoteLiteral } from '@asof/duck';
import { openVerifiedManifest } from '@asof/manifest';

/** What changed since the folder's previous publish, and the version that gives. */
export interface PublishVersion {
  version: string;
  previous: string | null;
  change: 'first' | 'same' | 'added' | 'changed';
}

/** Bumps a semver's part (docs/decisions/0066): patch = same data, minor = added, major = history changed. */
export function bumpVersion(previous: string, change: PublishVersion['change']): string {
  const [major, minor, patch] = previous.split('.').map(Number);
  if (change === 'changed') return `${major + 1}.0.0`;
  if (change === 'added') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * The version of a publish into `outDir` (docs/decisions/0066): 1.0.0 for a first publish (no publish
 * there, or one that no longer verifies); else the previous version bumped by what the observations did.
 * A row of the previous observations (series, timestamp, available_at, value) missing now is changed
 * history (MAJOR); only new rows is an addition (MINOR); the same rows is the same data (PATCH).
 */
export async function nextPublishVersion(
  duck: Duck,
  outDir: string,
  observations: string,
): Promise<PublishVersion> {
  const first: PublishVersion = { version: '1.0.0', previous: null, change: 'first' };
  if (!existsSync(join(outDir, 'manifest.json'))) return first;
  let old: Awaited<ReturnType<typeof openVerifiedManifest>>;
  try {
    old = await openVerifiedManifest(join(outDir, 'manifest.json'));
  } catch {
    return first;
  }
  try {
    const previous = old.manifest.config.version;
    const oldFiles = old.files('observations').filter((f) => f.output.path.endsWith('.parquet'));
    if (old.manifest.kind !== 'publish' || typeof previous !== 'string' || oldFiles.length === 0)
      return first;
    const cols = 'series_id, "timestamp", available_at, value';
    const read = (p: string) =>
      `SELECT ${cols} FROM read_parquet(${quoteLiteral(p)}, hive_partitioning = false)`;
    const oldRows = oldFiles.map((f) => read(f.readPath)).join(' UNION ALL ');
    const r = await duck.one<{ removed: bigint; added: bigint }>(
      `SELECT (SELECT count(*) FROM (${oldRows} EXCEPT ALL ${read(observations)})) AS removed,
              (SELECT count(*) FROM (${read(observations)} EXCEPT ALL ${oldRows})) AS added`,
    );
    const change = Number(r.removed) > 0 ? 'changed' : Number(r.added) > 0 ? 'added' : 'same';
    return { version: bumpVersion(previous, change), previous, change };
  } finally {
    old.close();
  }
}
