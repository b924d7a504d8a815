import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanStaleTemps } from './clean-stale-temps.ts';
import { makeSpillDir, SPILL_MARKER, spillDirProblem } from './spill-dir.ts';
import { registryDir } from './temp-registry.ts';

// Audit 4.13: the spill folder a pipeline's temp_directory gets is removed after a kill, and only it.
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'asof-spill-test-')));
  process.env.ASOF_STATE_DIR = join(root, 'state');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A spill folder as a dead process (pid 1, start 1) made it, with its marker unless `marker` is given. */
function deadSpill(name = 'asof-spill-1-1', marker: unknown = { asof_spill: 1, pid: 1, start: 1 }): string {
  const dir = join(root, 'spill', name);
  mkdirSync(dir, { recursive: true });
  if (marker !== null) writeFileSync(join(dir, SPILL_MARKER), JSON.stringify(marker));
  writeFileSync(join(dir, 'duckdb_temp_storage_DEFAULT-0.tmp'), 'spilled');
  return dir;
}

function plant(paths: string[]): void {
  mkdirSync(registryDir(), { recursive: true });
  writeFileSync(
    join(registryDir(), '1-1-9.json'),
    JSON.stringify({ command: 't', pid: 1, start: 1, paths, stores: [] }),
  );
}

describe('spill folders', () => {
  it('makeSpillDir registers the folder before making it, with a marker naming this process', () => {
    const tracked: string[] = [];
    const dir = makeSpillDir(join(root, 'spill'), (p) => tracked.push(p));
    expect(tracked).toEqual([dir]);
    expect(readdirSync(dir)).toEqual([SPILL_MARKER]);
    // Its own process is alive: never cleaned while it runs.
    expect(spillDirProblem(dir)).toBe('belongs to a running process');
  });

  it("a dead process's marked spill folder named by its registry entry is removed by the next cleanup", () => {
    const dir = deadSpill();
    expect(spillDirProblem(dir)).toBeNull();
    plant([dir]);
    const warnings: string[] = [];
    expect(cleanStaleTemps((l) => warnings.push(l))).toContain(dir);
    expect(readdirSync(join(root, 'spill'))).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it("a folder of that name without the marker, with another process's marker, with other files, or behind a symlink is left alone", () => {
    const cases: [string, () => string, RegExp][] = [
      ['no marker', () => deadSpill('asof-spill-1-1', null), /has no \.asof-spill marker/],
      [
        'another process',
        () => deadSpill('asof-spill-1-1', { asof_spill: 1, pid: 2, start: 1 }),
        /another process/,
      ],
      [
        'a user file in it',
        () => {
          const dir = deadSpill();
          writeFileSync(join(dir, 'thesis.tex'), 'mine');
          return dir;
        },
        /holds thesis\.tex/,
      ],
      [
        'behind a symlink',
        () => {
          deadSpill();
          symlinkSync(join(root, 'spill'), join(root, 'link'));
          return join(root, 'link', 'asof-spill-1-1');
        },
        /behind a symlink/,
      ],
      // Written as text: path.join would normalise the `..` away.
      ['through ..', () => `${deadSpill()}/../asof-spill-1-1`, /normalised/],
      ['another name', () => join(deadSpill('asof-spill-1-1-x'), '.'), /name/],
    ];
    for (const [what, make, problem] of cases) {
      const dir = make();
      expect(spillDirProblem(dir), what).toMatch(problem);
      plant([dir]);
      const warnings: string[] = [];
      cleanStaleTemps((l) => warnings.push(l));
      expect(readdirSync(dir), what).toContain('duckdb_temp_storage_DEFAULT-0.tmp');
      expect(warnings.join('\n'), what).toMatch(/cleanup left the path/);
      rmSync(join(root, 'spill'), { recursive: true });
      rmSync(join(root, 'link'), { force: true });
    }
  });
});
