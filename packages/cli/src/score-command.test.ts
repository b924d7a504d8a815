import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson, finalizeManifest, hashFile, sha256Hex, writeManifest } from '@asof/manifest';
import { type ManifestOutput, startCommandClock } from '@asof/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { scoreCommand } from './score-command.ts';

const FIXTURES = fileURLToPath(new URL('../../scoring/fixtures/', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'asof-score-cli-'));
// The scorer's baselines cache (and the registry of running operations) here, not in the user's state folder.
process.env.ASOF_STATE_DIR = join(root, 'state');
// The split in a folder of its own: an output may not lie inside a folder the command reads.
const dir = join(root, 'split');
mkdirSync(dir);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function splitManifest(): Promise<string> {
  const outputs: ManifestOutput[] = [];
  for (const t of ['origins', 'inputs', 'targets', 'tasks']) {
    copyFileSync(join(FIXTURES, 'split', `${t}.parquet`), join(dir, `${t}.parquet`));
    const { sha256, bytes } = await hashFile(join(dir, `${t}.parquet`));
    outputs.push({
      path: `${t}.parquet`,
      table: t,
      sha256,
      bytes,
      rows: 0,
      schema_fingerprint: sha256Hex(t),
      min_timestamp: null,
      max_timestamp: null,
      min_available_at: null,
      max_available_at: null,
    });
  }
  const config = { origins_policy: 'non_overlapping' };
  const path = join(dir, 'manifest.json');
  writeManifest(
    path,
    finalizeManifest({
      manifest_version: 1,
      name: 'cli-split',
      kind: 'split',
      parent_dataset_id: null,
      created_by: { asof_version: '0', duckdb_version: 'none', git_commit: null, git_dirty: null },
      config,
      config_sha256: sha256Hex(canonicalJson(config)),
      registry: [],
      inputs: [],
      outputs,
      warnings: [],
      summary: {},
    }),
  );
  return path;
}

describe('asof score', () => {
  it('writes results.json and leaderboard.md and prints the ranking', async () => {
    const manifest = await splitManifest();
    let out = '';
    let err = '';
    const io = { out: (t: string) => (out += t), err: (t: string) => (err += t), cwd: root };
    const code = await scoreCommand(
      ['--manifest', manifest, '--forecasts', join(FIXTURES, 'forecasts.csv'), '--out', 'scored', '--json'],
      io,
    );
    expect(code).toBe(0);
    expect(err).toMatch(/asof score: \[\d+\.\ds\] verified 4 file\(s\)/);
    expect(err).not.toMatch(/warning/);
    const summary = JSON.parse(out);
    expect(summary.verdicts).toBe('ok');
    const results = JSON.parse(readFileSync(join(root, 'scored', 'results.json'), 'utf8'));
    // GARCH is ranked only where it was fitted (docs/decisions/0059): not on this fixture's short windows.
    const garch = results.baseline_fits.find((f: { model: string }) => f.model === 'garch');
    expect(garch.fitted).toBe(0);
    expect(summary.overall.map((m: { model: string }) => m.model).sort()).toEqual([
      'arima',
      'drift',
      'mymodel',
      'random_walk',
      'seasonal_naive',
    ]);
    expect(results.config.refit_every).toBe(10);
    // --refit-every reaches the scorer (and its hashed config).
    const again = await scoreCommand(
      [
        '--manifest',
        manifest,
        '--forecasts',
        join(FIXTURES, 'forecasts.csv'),
        '--out',
        'scored-k1',
        '--refit-every',
        '1',
        '--half-spread-bps',
        '2.5',
        '--fee-bps',
        '0',
        '--fintsb-compat',
        'code',
      ],
      { out: () => {}, err: () => {}, cwd: root },
    );
    expect(again).toBe(0);
    const k1 = JSON.parse(readFileSync(join(root, 'scored-k1', 'results.json'), 'utf8'));
    expect(k1.config.refit_every).toBe(1);
    expect(k1.config.cost_diagnostic).toEqual({
      label: 'diagnostic, not a trading system',
      half_spread: 0.00025,
      slippage: 0.0005,
      fee: 0,
    });
    expect(results.config.cost_diagnostic.half_spread).toBe(0.0005);
    expect(k1.config.fintsb_compat).toBe('code');
    expect(results.config.fintsb_compat).toBe('paper');
    expect(k1.config_sha256).not.toBe(results.config_sha256);
    expect(existsSync(join(root, 'scored', 'leaderboard.md'))).toBe(true);
    expect(JSON.parse(readFileSync(join(root, 'scored', 'results.json'), 'utf8')).dataset_id).toBe(
      summary.dataset_id,
    );
  }, 60_000);

  it('refuses bad usage with the usage line', async () => {
    const io = { out: () => {}, err: () => {}, cwd: dir };
    await expect(scoreCommand(['--manifest', 'm.json'], io)).rejects.toThrow(/usage: asof score --manifest/);
    await expect(
      scoreCommand(['--manifest', 'm', '--forecasts', 'f', '--out', 'o', '--alpha', '2'], io),
    ).rejects.toThrow(/--alpha 2/);
    await expect(
      scoreCommand(['--manifest', 'm', '--forecasts', 'f', '--out', 'o', '--refit-every', '0'], io),
    ).rejects.toThrow(/--refit-every 0: expected a whole number ≥ 1/);
    await expect(
      scoreCommand(['--manifest', 'm', '--forecasts', 'f', '--out', 'o', '--fee-bps=-1'], io),
    ).rejects.toThrow(/--fee-bps -1: expected basis points ≥ 0/);
    await expect(
      scoreCommand(['--manifest', 'm', '--forecasts', 'f', '--out', 'o', '--fintsb-compat', 'tables'], io),
    ).rejects.toThrow(/--fintsb-compat tables: expected paper \(the default\) or code/);
  });

  it('stamps every progress line from the command’s start, reading the inputs included (issue 51 item 7)', async () => {
    const manifest = await splitManifest();
    let err = '';
    const io = { out: () => {}, err: (t: string) => (err += t), cwd: root };
    // As main.ts does for a process that started 7 s ago: the clock is the command's, not the scorer's.
    startCommandClock(performance.now() - 7000);
    try {
      const code = await scoreCommand(
        [
          '--manifest',
          manifest,
          '--forecasts',
          join(FIXTURES, 'forecasts.csv'),
          '--out',
          'clocked',
          '--no-cache',
        ],
        io,
      );
      expect(code).toBe(0);
    } finally {
      startCommandClock(0);
    }
    const lines = err.split('\n').filter((l) => l.startsWith('asof score: '));
    expect(lines.length).toBeGreaterThan(3);
    const stamps = lines.map((l) => Number(/^asof score: \[(\d+\.\d)s\] /.exec(l)?.[1]));
    expect(stamps.every((s) => s >= 7)).toBe(true);
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
    // The scorer's own steps carry the same clock, not one of their own that starts at 0.
    expect(lines.some((l) => /\] baselines made$/.test(l))).toBe(true);
  });
});
