import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreQuestions } from '@asof/questions';
import { QUESTIONS_FIXTURE, QUESTIONS_FIXTURE_ANSWERS_CSV, writeQuestionsFixture } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from './build-report.ts';

const work = mkdtempSync(join(tmpdir(), 'asof-questions-report-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeAll(async () => {
  await writeQuestionsFixture(join(work, 'q'));
  writeFileSync(join(work, 'm1.csv'), QUESTIONS_FIXTURE_ANSWERS_CSV);
  await scoreQuestions({
    questionsDir: join(work, 'q'),
    answerFiles: [join(work, 'm1.csv')],
    outDir: join(work, 's'),
  });
});

describe('asof report of a questions folder with its scores', () => {
  it('draws the per-family leaderboard tables and the T1 against T2 chart', async () => {
    const r = await buildReport({
      manifestPath: join(work, 'q', 'manifest.json'),
      resultsPath: join(work, 's', 'results.json'),
      outPath: join(work, 'q.html'),
    });
    expect(r).toMatchObject({ kind: 'questions', scoring: true, charts: 1 });
    const html = readFileSync(join(work, 'q.html'), 'utf8');
    expect(html).toContain('(question scores)');
    expect(html).toContain(
      'EVT: probability of an event, Brier skill vs 0.5 (1 − Brier/0.25) — 1 T1, 2 T2, 1 T3 open',
    );
    expect(html).toMatch(
      /<td>m1<\/td><td class="n">0\.840 \[0\.840, 0\.840\]<\/td><td class="n">0\.500 \[0\.360, 0\.640\]<\/td>/,
    );
    expect(html).toContain('<td>coin_flip (baseline)</td>');
    expect(html).toContain('data-chart="questions-t1-vs-t2" data-marks="11"');
  });

  it('without --results says how to get scores; scores of another folder are refused', async () => {
    const bare = await buildReport({
      manifestPath: join(work, 'q', 'manifest.json'),
      outPath: join(work, 'bare.html'),
    });
    expect(bare).toMatchObject({ kind: 'questions', scoring: false, charts: 0 });
    expect(readFileSync(join(work, 'bare.html'), 'utf8')).toContain('No scores given: pass --results');
    const other = join(work, 'q2');
    await writeQuestionsFixture(other, {
      ...QUESTIONS_FIXTURE,
      questions: QUESTIONS_FIXTURE.questions.slice(0, 12),
    });
    const err = await buildReport({
      manifestPath: join(other, 'manifest.json'),
      resultsPath: join(work, 's', 'results.json'),
      outPath: join(work, 'other.html'),
    }).catch((e) => e);
    expect(err.code).toBe('RESULTS_OTHER_DATASET');
  });
});
