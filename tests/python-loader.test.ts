import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { asofBin, asofIn, REPO, SCRATCH } from './helpers.ts';
import { pythonWith, requirePython } from './python-available.ts';
import { linkShared, tinyFixture } from './shared-fixtures.ts';

// Issue 54 item 3: python/asof_data, the pandas loader of the folders `asof publish` writes. Its own unittest
// suite runs under Debian's python3 (pandas, no pyarrow: the CSV path); then, once `asof publish` is in the
// checkout, the tiny universe is published with --csv and load(..., as_of=T) of three series must equal
// `asof show <id> --data u --as-of T --json` row for row.
const python = pythonWith('import pandas');
const hasPandas = requirePython(python, 'python3-pandas', 'the asof_data Python loader tests');
const PYTHON_DIR = join(REPO, 'python');
const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: PYTHON_DIR };

// `asof publish` is another worker's command (issue 54): until it is merged the comparison skips.
const hasPublish = asofBin(['publish', '--help']).code === 0;
if (!hasPublish) console.warn('skipping the asof_data comparison with asof show: asof publish not available');

/** The instant the views are compared at: inside both tiny sources' history, with revisions before and after. */
const T = '2020-06-15T12:00:00Z';

interface ShowRow {
  timestamp: string;
  available_at: string;
  value: number;
}

// load(..., as_of=T) of the given series, printed as asof show --json prints its rows (ISO instants with
// microseconds, UTC).
const LOAD = `
import json, sys
import asof_data
folder, as_of, ids = sys.argv[1], sys.argv[2], sys.argv[3:]
df = asof_data.load(folder, as_of=as_of, series=ids)
iso = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
out = {i: [] for i in ids}
for r in df.itertuples():
    out[r.series_id].append({"timestamp": iso(r.timestamp), "available_at": iso(r.available_at), "value": float(r.value)})
checked = asof_data.verify(folder)
print(json.dumps({"series": out, "verified": len(checked)}))
`;

describe('python/asof_data', () => {
  it.skipIf(!hasPandas)('its unittest suite passes under /usr/bin/python3', () => {
    const r = spawnSync(python!, ['-m', 'unittest', 'discover', '-s', 'tests', '-v'], {
      cwd: PYTHON_DIR,
      env,
      encoding: 'utf8',
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stderr).toMatch(/^Ran \d+ tests/m);
    expect(r.stderr).toMatch(/^OK/m);
    expect(r.stderr).toMatch(/test_flipped_byte_is_refused_before_parsing \S+ \.\.\. ok/);
  });

  describe.skipIf(!hasPandas || !hasPublish)('a universe published with --csv', () => {
    const work = join(SCRATCH, `python-loader-${process.pid}`);
    beforeAll(async () => {
      mkdirSync(work, { recursive: true });
      const tiny = await tinyFixture();
      linkShared(work, { u: tiny.universe });
      const r = await asofIn(work, 'publish', '--manifest', 'u/manifest.json', '--out', 'p', '--csv');
      expect(r.code, r.stderr).toBe(0);
    }, 600_000);

    it('load(as_of=T) of three series equals asof show --as-of T --json', async () => {
      const listed = await asofIn(work, 'series', '--data', 'u', '--json');
      expect(listed.code, listed.stderr).toBe(0);
      const all = JSON.parse(listed.stdout) as { series_id: string; source: string; n_revisions: number }[];
      // The most revised series of each source first (revisions are where an as-of view can go wrong).
      const ranked = [...all].sort(
        (a, b) => b.n_revisions - a.n_revisions || a.series_id.localeCompare(b.series_id),
      );
      const sources = new Set<string>();
      const firstOfSource = ranked.filter((s) => !sources.has(s.source) && sources.add(s.source));
      const ids = [...new Set([...firstOfSource, ...ranked].map((s) => s.series_id))].slice(0, 3);
      expect(ids).toHaveLength(3);

      const r = spawnSync(python!, ['-c', LOAD, join(work, 'p'), T, ...ids], { env, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const loaded = JSON.parse(r.stdout) as { series: Record<string, ShowRow[]>; verified: number };
      expect(loaded.verified).toBeGreaterThan(0);

      let total = 0;
      for (const id of ids) {
        const shown = await asofIn(work, 'show', id, '--data', 'u', '--as-of', T, '--json');
        expect(shown.code, shown.stderr).toBe(0);
        const want = (JSON.parse(shown.stdout) as ShowRow[]).map((x) => ({
          timestamp: x.timestamp,
          available_at: x.available_at,
          value: Number(x.value),
        }));
        const got = loaded.series[id];
        expect(
          got.map((x) => [x.timestamp, x.available_at]),
          id,
        ).toEqual(want.map((x) => [x.timestamp, x.available_at]));
        // Values through CSV text: equal to the double asof holds (a relative 1e-12 allows only the last bit).
        got.forEach((x, i) => {
          expect(Math.abs(x.value - want[i].value), `${id} ${x.timestamp}`).toBeLessThanOrEqual(
            Math.abs(want[i].value) * 1e-12,
          );
        });
        total += want.length;
      }
      expect(total).toBeGreaterThan(0);
    });

    it('refuses the published folder after one flipped byte, naming the file', () => {
      const manifest = JSON.parse(readFileSync(join(work, 'p', 'manifest.json'), 'utf8')) as {
        outputs: { path: string; table: string }[];
      };
      const csv = manifest.outputs.find((o) => o.table === 'observations' && o.path.endsWith('.csv'))!.path;
      const file = join(work, 'p', ...csv.split('/'));
      const bytes = readFileSync(file);
      const at = bytes.length >> 1;
      bytes[at] ^= 0x01;
      writeFileSync(file, bytes);
      try {
        const load = 'import sys, asof_data; asof_data.load(sys.argv[1])';
        const r = spawnSync(python!, ['-c', load, join(work, 'p')], { env, encoding: 'utf8' });
        expect(r.status).not.toBe(0);
        expect(r.stderr).toMatch(/VerificationError/);
        expect(r.stderr).toContain(csv);
      } finally {
        bytes[at] ^= 0x01;
        writeFileSync(file, bytes);
      }
    });
  });
});
