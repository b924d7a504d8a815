import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeQuestionsFixture } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './main.ts';

// asof questions' bad input: each a one-line error naming the flag and value, with a hint, exit 2, and
// nothing written. A generated folder's contents are tested end to end in tests/questions.test.ts.
const cwd = mkdtempSync(join(tmpdir(), 'asof-questions-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
beforeAll(async () => {
  await writeQuestionsFixture(join(cwd, 'q'));
});

async function asof(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

const base = [
  'questions',
  '--manifest',
  'q/manifest.json',
  '--model-cutoff',
  '2021-12-31',
  '--run-date',
  '2025-12-31',
  '--out',
  'out',
];

describe('asof questions', () => {
  it('--help explains the families and files; asof --help lists it', async () => {
    const h = await asof('questions', '--help');
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^asof questions --manifest M --model-cutoff DATE --run-date DATE --out DIR/);
    for (const word of ['VAL', 'RANK', 'EVT', 'FUND', 'resolutions.jsonl', 'docs/decisions/0070']) {
      expect(h.stdout).toContain(word);
    }
    expect((await asof('--help')).stdout).toContain('asof questions --manifest M');
  });

  it.each([
    [
      ['--families', 'VAL,FOO'],
      /--families VAL,FOO: unknown family FOO\n {2}hint: a comma-separated subset of VAL,RANK,EVT,FUND/,
    ],
    [['--per-family', '0'], /--per-family 0: expected a whole number from 1 to 100000/],
    [['--price-lookback', 'ten'], /--price-lookback ten: expected a whole number of bars from 1, or all/],
    [['--bogus'], /bogus/],
  ])('refuses %j (exit 2, nothing written)', async (extra, message) => {
    const r = await asof(...base, ...(extra as string[]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(cwd, 'out'))).toBe(false);
  });

  it('refuses a missing flag, a cutoff after the run date and a manifest that is not a universe', async () => {
    const missing = await asof('questions', '--manifest', 'q/manifest.json', '--out', 'out');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--model-cutoff is required');
    const late = await asof(
      ...base.slice(0, 3),
      '--model-cutoff',
      '2026-01-01',
      '--run-date',
      '2025-12-31',
      '--out',
      'out',
    );
    expect(late.code).toBe(2);
    expect(late.stderr).toContain(
      '--model-cutoff 2026-01-01T00:00:00.000000Z is after --run-date 2025-12-31T00:00:00.000000Z',
    );
    const notUniverse = await asof(...base);
    expect(notUniverse.code).toBe(2);
    expect(notUniverse.stderr).toMatch(
      /a questions manifest, not a universe's; pass the manifest\.json of a folder 'asof build' wrote/,
    );
    expect(existsSync(join(cwd, 'out'))).toBe(false);
  });
});
