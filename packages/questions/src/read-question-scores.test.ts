import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUESTIONS_FIXTURE_ANSWERS_CSV, writeQuestionsFixture } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readQuestionScores } from './read-question-scores.ts';
import { scoreQuestions } from './score-questions.ts';

const work = mkdtempSync(join(tmpdir(), 'asof-read-scores-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeAll(async () => {
  await writeQuestionsFixture(join(work, 'q'));
  writeFileSync(join(work, 'm1.csv'), QUESTIONS_FIXTURE_ANSWERS_CSV);
  for (const out of ['s', 'edited']) {
    await scoreQuestions({
      questionsDir: join(work, 'q'),
      answerFiles: [join(work, 'm1.csv')],
      outDir: join(work, out),
    });
  }
});

describe('readQuestionScores', () => {
  it('reads a verified results.json', async () => {
    const r = await readQuestionScores(join(work, 's', 'results.json'));
    expect(r.rows).toHaveLength(9);
  });

  it('refuses an edited byte, a results.json without its manifest, a missing file and a non-score folder', async () => {
    appendFileSync(join(work, 'edited', 'results.json'), ' ');
    const edited = await readQuestionScores(join(work, 'edited', 'results.json')).catch((e) => e);
    expect(edited.code).toBe('MANIFEST_MISMATCH');
    mkdirSync(join(work, 'alone'));
    copyFileSync(join(work, 's', 'results.json'), join(work, 'alone', 'results.json'));
    expect((await readQuestionScores(join(work, 'alone', 'results.json')).catch((e) => e)).code).toBe(
      'QUESTION_SCORES_NOT_A_SCORE',
    );
    expect((await readQuestionScores(join(work, 'none.json')).catch((e) => e)).code).toBe(
      'QUESTION_SCORES_NOT_FOUND',
    );
    expect((await readQuestionScores(join(work, 'q', 'questions.jsonl')).catch((e) => e)).code).toBe(
      'QUESTION_SCORES_NOT_A_SCORE',
    );
  });
});
