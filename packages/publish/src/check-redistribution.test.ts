import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, type Manifest } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRedistribution, inputFolders, testOnlyMarker } from './check-redistribution.ts';

const root = mkdtempSync(join(tmpdir(), 'asof-publish-terms-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A universe manifest with just the fields the rule reads. */
const universe = (sources: Record<string, unknown>, pipelineFile?: string) =>
  ({
    kind: 'universe',
    config: { sources },
    created_by: pipelineFile === undefined ? {} : { pipeline_file: pipelineFile },
  }) as unknown as Manifest;

describe('the test-only rule (docs/decisions/0066)', () => {
  const archive = join(root, 'fixtures', 'real-archive');
  mkdirSync(join(archive, 'sec'), { recursive: true });
  mkdirSync(join(archive, 'membership'), { recursive: true });
  writeFileSync(
    join(archive, 'PROVENANCE.md'),
    '# files\n\nUse these files **only as test fixtures**; do not redistribute as a dataset.\n',
  );
  const marked = join(root, 'marked', 'raw');
  mkdirSync(marked, { recursive: true });
  writeFileSync(join(root, 'marked', 'TEST-ONLY'), '');
  const free = join(root, 'free', 'raw');
  mkdirSync(free, { recursive: true });
  writeFileSync(join(root, 'free', 'PROVENANCE.md'), 'Public domain data; redistribute freely.\n');

  it('finds raw_dir and membership folders in the config, relative ones against the pipeline folder', () => {
    const m = universe(
      {
        edgar: { raw_dir: join(archive, 'sec') },
        prices: { raw_dir: 'prices', membership: [join(archive, 'membership', 'sp500.csv')] },
        fred: { synthetic: { seed: 1 } },
      },
      join(root, 'pipes', 'p.json'),
    );
    expect(inputFolders(m, join(root, 'u'))).toEqual(
      [join(archive, 'membership'), join(archive, 'sec'), join(root, 'pipes', 'prices')].sort(),
    );
  });

  it('a PROVENANCE.md saying "only as test fixtures" above the folder, or a TEST-ONLY file, marks it', () => {
    expect(testOnlyMarker(join(archive, 'sec'))).toBe(join(archive, 'PROVENANCE.md'));
    expect(testOnlyMarker(marked)).toBe(join(root, 'marked', 'TEST-ONLY'));
    expect(testOnlyMarker(free)).toBeNull();
  });

  it('refuses a universe read from a marked folder with one line naming it and --private', () => {
    const m = universe({ edgar: { raw_dir: join(archive, 'sec') } });
    let error: unknown;
    try {
      checkRedistribution(m, root, 'u/manifest.json');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe('PUBLISH_TEST_ONLY_INPUT');
    expect((error as InputError).exitCode).toBe(2);
    expect((error as Error).message).not.toContain('\n');
    expect((error as Error).message).toContain(join(archive, 'sec'));
    expect((error as Error).message).toContain('--private');
    expect(() => checkRedistribution(universe({ prices: { raw_dir: free } }), root, 'u')).not.toThrow();
    expect(() => checkRedistribution(universe({ fred: { synthetic: {} } }), root, 'u')).not.toThrow();
  });
});
