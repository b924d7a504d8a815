import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binBuildFingerprint, removeOutput, SCRATCH, writeTinyPipeline } from './helpers.ts';

// DuckDB's ICU (built into @duckdb/node-api) takes the machine's time zone by default, and TIMESTAMPTZ
// casts, strftime and date_trunc follow it: before asof pinned TimeZone to UTC, the default universe
// built under TZ=America/New_York had another dataset_id. The zones are far from UTC and from each other
// (a half-hour offset, a DST zone), so a shift of any size shows.
const ZONES = ['UTC', 'America/New_York', 'Asia/Kolkata'];
const dir = mkdtempSync(join(tmpdir(), 'asof-tz-'));
const outs: string[] = [];
afterAll(() => {
  for (const o of outs) removeOutput(o);
  rmSync(dir, { recursive: true, force: true });
});

/** dataset_id and each file's sha256 of `asof build pipeline` run by a child process under TZ=zone. */
function buildUnder(zone: string, pipeline: string, name: string): string {
  const out = join(SCRATCH, `test-tz-${name}-${zone.replace('/', '-')}-${process.pid}`);
  outs.push(out);
  return binBuildFingerprint(pipeline, out, { ...process.env, TZ: zone });
}

describe('the machine time zone', () => {
  it('changes no byte of a build: embedded, ALFRED and DuckDB-generated series alike', () => {
    const tiny = writeTinyPipeline(dir);
    const scale = join(dir, 'scale-tiny.json');
    writeFileSync(
      scale,
      JSON.stringify({
        name: 'scale-tiny',
        eval_start: '2020-01-01',
        duckdb: { threads: 2, memory_limit: '2GB' },
        sources: {
          scale: {
            seed: 20260101,
            scale: 0.0002,
            end: '2025-06-27',
            revision_share: 0.1,
            restatement_share: 0.05,
          },
        },
      }),
    );
    for (const [name, pipeline] of [
      ['tiny', tiny],
      ['scale', scale],
    ]) {
      const [first, ...rest] = ZONES.map((z) => buildUnder(z, pipeline, name));
      for (const other of rest) expect(other).toBe(first);
    }
  }, 300_000);
});
