import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVerifiedManifest } from '@asof/manifest';
import { InputError } from '@asof/schema';
import { QUESTIONS_FIXTURE, writeQuestionsFixture } from '@asof/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { readQuestionsFolder } from './read-questions-folder.ts';

const work = mkdtempSync(join(tmpdir(), 'asof-read-questions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function read(name: string, rows: Parameters<typeof writeQuestionsFixture>[1]) {
  const dir = join(work, name);
  await writeQuestionsFixture(dir, rows);
  const verified = await openVerifiedManifest(join(dir, 'manifest.json'));
  try {
    return readQuestionsFolder(verified);
  } finally {
    verified.close();
  }
}

function refusal(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('accepted');
}

describe('readQuestionsFolder', () => {
  it('reads the listed .jsonl files of the three tables', async () => {
    const folder = await read('ok', QUESTIONS_FIXTURE);
    expect(folder.questions.size).toBe(13);
    expect(folder.resolutions.get('r2')?.ranking).toEqual(['s:c', 's:b', 's:a']);
    expect(folder.baselines).toHaveLength(17);
    expect(folder.files.map((f) => f.output.table)).toEqual([
      'questions',
      'resolutions',
      'question_baselines',
    ]);
  });

  it('refuses a row that breaks the contract, naming file, line, field and value', async () => {
    const questions = QUESTIONS_FIXTURE.questions.map((q) =>
      q.instance_id === 'f1' ? { ...q, scorer_params: { scale: 0 } } : q,
    );
    const err = await read('bad-scale', { ...QUESTIONS_FIXTURE, questions }).catch((e) => e);
    expect(err.code).toBe('QUESTIONS_FOLDER_INVALID');
    // rows sorted by instance_id: e1 e2 e3 e4 f1 → line 5
    expect(err.message).toMatch(
      /questions\.jsonl: line 5, field scorer_params\.scale: 0; expected a number > 0/,
    );
    expect(err.context).toMatchObject({ row: 5, field: 'scorer_params.scale', value: 0 });
  });

  it('refuses an EVT outcome other than 0/1 and a T2 instance without a resolution', async () => {
    const resolutions = QUESTIONS_FIXTURE.resolutions.map((r) =>
      r.instance_id === 'e2' ? { ...r, value: 0.5 } : r,
    );
    const err = await read('bad-outcome', { ...QUESTIONS_FIXTURE, resolutions }).catch((e) => e);
    expect(err.code).toBe('QUESTIONS_FOLDER_INVALID');
    expect(err.message).toMatch(/resolutions\.jsonl: line 2, field value: 0\.5; expected 0 or 1/);
    const missing = QUESTIONS_FIXTURE.resolutions.filter((r) => r.instance_id !== 'v3');
    const err2 = await read('no-resolution', { ...QUESTIONS_FIXTURE, resolutions: missing }).catch((e) => e);
    expect(err2.code).toBe('QUESTIONS_FOLDER_INVALID');
    expect(err2.message).toContain('T2 instance v3 has no resolved row');
  });

  it('refuses a kind other than questions and a folder without a table', async () => {
    const dir = join(work, 'universe');
    await writeQuestionsFixture(dir, QUESTIONS_FIXTURE, { kind: 'universe' });
    const verified = await openVerifiedManifest(join(dir, 'manifest.json'));
    try {
      const err = refusal(() => readQuestionsFolder(verified));
      expect(err.code).toBe('QUESTIONS_NOT_A_QUESTIONS_FOLDER');
      expect(err.message).toContain("manifest kind is 'universe', expected 'questions'");
      // A questions manifest that does not list baselines.jsonl.
      const partial = Object.create(verified, {
        manifest: { value: { ...verified.manifest, kind: 'questions' } },
        files: {
          value: (...t: string[]) =>
            verified.files(...t).filter((f) => f.output.table !== 'question_baselines'),
        },
      });
      const err2 = refusal(() => readQuestionsFolder(partial));
      expect(err2.code).toBe('QUESTIONS_FOLDER_INCOMPLETE');
      expect(err2.message).toContain("table 'question_baselines'");
    } finally {
      verified.close();
    }
  });
});
