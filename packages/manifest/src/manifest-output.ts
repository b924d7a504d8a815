import { join } from 'node:path';
import type { ManifestOutput } from '@asof/schema';
import { sha256Hex } from './canonical-json.ts';
import { hashFile } from './hash-file.ts';

/** What a writer knows about a table it wrote; the manifest adds the file's hash and size. */
export interface WrittenFile {
  /** Relative to the manifest's folder, with / separators. */
  path: string;
  table: string;
  rows: number;
  /** `name:type` per column, in file order: the schema fingerprint is their sha256. */
  columns: string[];
  min_timestamp: string | null;
  max_timestamp: string | null;
  min_available_at: string | null;
  max_available_at: string | null;
}

/** The manifest entry of a written file under `dir`: hashes it and fingerprints its schema. */
export async function manifestOutput(dir: string, w: WrittenFile): Promise<ManifestOutput> {
  const { sha256, bytes } = await hashFile(join(dir, ...w.path.split('/')));
  return {
    path: w.path,
    table: w.table,
    sha256,
    bytes,
    rows: w.rows,
    schema_fingerprint: sha256Hex(w.columns.join('\n')),
    min_timestamp: w.min_timestamp,
    max_timestamp: w.max_timestamp,
    min_available_at: w.min_available_at,
    max_available_at: w.max_available_at,
  };
}
