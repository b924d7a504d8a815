import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUESTIONS_FIXTURE_ANSWERS_CSV, writeQuestionsFixture } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './main.ts';

const cwd = mkdtempSync(join(tmpdir(), 'asof-score-questions-cli-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
beforeAll(async () => {
  await writeQuestionsFixture(join(cwd, 'q'));
  writeFileSync(join(cwd, 'm1.csv'), QUESTIONS_FIXTURE_ANSWERS_CSV);
  writeFileSync(join(cwd, 'bad.jsonl'), '{"instance_id":"e1","answer":2}\n');
});

async function asof(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { out: (t) => (stdout += t), err: (t) => (stderr += t), cwd });
  return { code, stdout, stderr };
}

describe('asof score-questions', () => {
  it('--help explains the command; asof --help lists it', async () => {
    const h = await asof('score-questions', '--help');
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^asof score-questions --questions DIR --answers FILE/);
    expect(h.stdout).toContain('docs/decisions/0069');
    expect((await asof('--help')).stdout).toContain('asof score-questions --questions DIR');
  });

  it('refuses unknown options, missing flags and a bad seed (exit 2, usage repeated)', async () => {
    const unknown = await asof(
      'score-questions',
      '--questions',
      'q',
      '--answers',
      'm1.csv',
      '--out',
      's',
      '--bogus',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/bogus/);
    expect(unknown.stderr).toContain('usage: asof score-questions');
    const missing = await asof('score-questions', '--questions', 'q', '--out', 's');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--questions, --answers and --out are required');
    const seed = await asof(
      'score-questions',
      '--questions',
      'q',
      '--answers',
      'm1.csv',
      '--out',
      's',
      '--seed',
      '1.5',
    );
    expect(seed.code).toBe(2);
    expect(seed.stderr).toContain('--seed 1.5: expected an integer');
    expect(existsSync(join(cwd, 's'))).toBe(false);
  });

  it('a bad answer exits 2 naming file, row, field and value, with --json an error document', async () => {
    const r = await asof(
      'score-questions',
      '--questions',
      'q',
      '--answers',
      'bad.jsonl',
      '--out',
      's',
      '--json',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${join(cwd, 'bad.jsonl')}: row 1, field answer: 2: a probability outside [0, 1]`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'ANSWERS_PROBABILITY_RANGE' } });
  });

  it('scores, prints per-family tables and the next: hint; --json gives the rows', async () => {
    const r = await asof('score-questions', '--questions', 'q', '--answers', 'm1.csv', '--out', 'scores');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^EVT \(brier_skill_vs_coin_flip; 1 T1, 2 T2, 1 T3 open\)$/m);
    expect(r.stdout).toMatch(/m1\s+0\.840\s+0\.500\s+0\.340\s+2\/2/);
    expect(r.stderr).toMatch(
      /^next: asof report --manifest q\/manifest\.json --results scores\/results\.json --out scores-report\.html$/m,
    );
    const j = await asof(
      'score-questions',
      '--questions',
      'q',
      '--answers',
      'm1.csv',
      '--out',
      'scores2',
      '--json',
      '--seed',
      '3',
    );
    expect(j.code, j.stderr).toBe(0);
    const doc = JSON.parse(j.stdout);
    expect(doc.rows).toHaveLength(9);
    expect(doc.parent_dataset_id).toBe(
      JSON.parse(readFileSync(join(cwd, 'q', 'manifest.json'), 'utf8')).dataset_id,
    );
    expect(JSON.parse(readFileSync(join(cwd, 'scores2', 'results.json'), 'utf8')).config.seed).toBe(3);
  });
});
