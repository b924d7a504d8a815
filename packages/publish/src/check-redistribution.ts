import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError, type Manifest } from '@asof/schema';

/** The file that marks a folder (and every folder below it) as test-only. */
export const TEST_ONLY_MARKER = 'TEST-ONLY';
/** The words of a PROVENANCE.md that mark its folder test-only (the real-archive fixtures' terms). */
const TEST_ONLY_WORDS = /only\s+as\s+test\s+fixtures/i;

/**
 * The folders a universe read its files from, as its manifest's config records them: every `raw_dir` and
 * the folder of every `membership` file of every source. A relative path resolves against the pipeline
 * file's folder (created_by.pipeline_file) when the manifest names one, else against the universe's folder.
 */
export function inputFolders(manifest: Manifest, manifestDir: string): string[] {
  const pipeline = manifest.created_by.pipeline_file;
  const base = pipeline
    ? dirname(isAbsolute(pipeline) ? pipeline : join(manifestDir, pipeline))
    : manifestDir;
  const found = new Set<string>();
  const visit = (value: unknown, key: string): void => {
    if (typeof value === 'string') {
      if (key === 'raw_dir') found.add(resolve(base, value));
      else if (key === 'membership') found.add(dirname(resolve(base, value)));
    } else if (Array.isArray(value)) for (const v of value) visit(v, key);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) visit(v, k);
  };
  visit(manifest.config.sources, 'sources');
  return [...found].sort();
}

/**
 * The marker that makes `folder` test-only, or null: a TEST-ONLY file, or a PROVENANCE.md whose text says
 * the files are to be used "only as test fixtures", in the folder or any folder above it (a fixture
 * collection states its terms once, at its top: ../shared/fixtures/real-archive/PROVENANCE.md).
 */
export function testOnlyMarker(folder: string): string | null {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const marker = join(dir, TEST_ONLY_MARKER);
    if (existsSync(marker)) return marker;
    const provenance = join(dir, 'PROVENANCE.md');
    if (existsSync(provenance)) {
      const text = readFileSync(provenance, 'utf8').replace(/[*_`]/g, '');
      if (TEST_ONLY_WORDS.test(text)) return provenance;
    }
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Refuses to publish a universe built from inputs marked test-only (docs/decisions/0066): the data may be
 * used for tests, not redistributed. `--private` (a folder for the user's own use) skips the check.
 */
export function checkRedistribution(manifest: Manifest, manifestDir: string, label: string): void {
  for (const folder of inputFolders(manifest, manifestDir)) {
    const marker = testOnlyMarker(folder);
    if (marker === null) continue;
    throw new InputError(
      'PUBLISH_TEST_ONLY_INPUT',
      `${label}: the universe read ${folder}, marked test-only by ${marker} (not for redistribution); hint: --private writes the folder for your own use (docs/decisions/0066)`,
      { context: { file: label, value: folder } },
    );
  }
}
