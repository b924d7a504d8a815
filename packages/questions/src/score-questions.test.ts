import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openVerifiedManifest } from '@asof/manifest';
import { AsofError } from '@asof/schema';
import { QUESTIONS_FIXTURE_ANSWERS_CSV, writeQuestionsFixture } from '@asof/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionScoreRow, QuestionScores } from './build-question-scores.ts';
import { scoreQuestions } from './score-questions.ts';

const work = mkdtempSync(join(tmpdir(), 'asof-score-questions-'));
const qdir = join(work, 'q');
const answers = join(work, 'm1.csv');
let questionsId = '';
let results: QuestionScores;

beforeAll(async () => {
  questionsId = (await writeQuestionsFixture(qdir)).dataset_id;
  writeFileSync(answers, QUESTIONS_FIXTURE_ANSWERS_CSV);
  results = (await scoreQuestions({ questionsDir: qdir, answerFiles: [answers], outDir: join(work, 's') }))
    .results;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function row(model: string, family: string): QuestionScoreRow {
  const r = results.rows.find((x) => x.model === model && x.family === family);
  if (r === undefined) throw new Error(`no row ${model} ${family}`);
  return r;
}

describe('scoreQuestions on a hand-made questions folder', () => {
  it('scores the baselines always, and each model on the families it answered', () => {
    expect(results.models).toEqual([
      { model: 'base_rate', baseline: true },
      { model: 'coin_flip', baseline: true },
      { model: 'last_value', baseline: true },
      { model: 'momentum', baseline: true },
      { model: 'm1', baseline: false },
    ]);
    expect(results.rows.map((r) => `${r.model}/${r.family}`)).toEqual([
      'base_rate/EVT',
      'coin_flip/EVT',
      'last_value/VAL',
      'last_value/FUND',
      'momentum/RANK',
      'm1/VAL',
      'm1/RANK',
      'm1/EVT',
      'm1/FUND',
    ]);
    expect(results.instances).toEqual([
      { family: 'VAL', T1: 2, T2: 2, T3: 1 },
      { family: 'RANK', T1: 1, T2: 1, T3: 0 },
      { family: 'EVT', T1: 1, T2: 2, T3: 1 },
      { family: 'FUND', T1: 1, T2: 1, T3: 0 },
    ]);
    expect(results.questions_dataset_id).toBe(questionsId);
    expect(results.config).toEqual({ seed: 0, resamples: 1000, ci_level: 0.95, cluster: 'cluster_id' });
  });

  it('VAL: error reduction 0.5 in T1 and T2 (each error half the close’s), partial T2 coverage, T3 pending', () => {
    const v = row('m1', 'VAL');
    expect(v.metric).toBe('error_reduction');
    expect(v.T1).toMatchObject({ n: 2, total: 2, coverage: 1, partial: false });
    expect(v.T1.score).toBeCloseTo(0.5, 12);
    expect(v.T1.ci_low).toBeCloseTo(0.5, 12);
    expect(v.T1.ci_high).toBeCloseTo(0.5, 12);
    expect(v.T2).toMatchObject({ n: 1, total: 2, coverage: 0.5, partial: true });
    expect(v.T2.score).toBeCloseTo(0.5, 12);
    expect(v.delta_t1_t2.value).toBeCloseTo(0, 12);
    expect(v.t3_pending).toEqual({ open: 1, answered: 1 });
    // The close at t scores 0 by definition; v4's close did not move (Σe0 includes its 0).
    expect(row('last_value', 'VAL').T2).toMatchObject({ n: 2, score: 0 });
  });

  it('RANK: Spearman 1 then 0 (Δ 1), top-1 hit; momentum 0.75 and 0.25', () => {
    const r = row('m1', 'RANK');
    expect([r.T1.score, r.T2.score, r.delta_t1_t2.value]).toEqual([1, 0, 1]);
    expect([r.T1.metrics.top_k_hit, r.T2.metrics.top_k_hit]).toEqual([1, 0]);
    expect(r.delta_t1_t2.ci_low).toBe(1);
    const m = row('momentum', 'RANK');
    expect([m.T1.score, m.T2.score]).toEqual([0.75, 0.25]);
  });

  it('EVT: BSS vs 0.5 0.84 and 0.5, vs the base rate 1 − 0.25/0.52, cluster CI from the two clusters', () => {
    const e = row('m1', 'EVT');
    expect(e.metric).toBe('brier_skill_vs_coin_flip');
    expect(e.T1.score).toBeCloseTo(0.84, 12);
    expect(e.T2.score).toBeCloseTo(0.5, 12);
    expect(e.T2.metrics.brier).toBeCloseTo(0.125, 12);
    expect(e.T2.metrics.brier_skill_vs_base_rate).toBeCloseTo(1 - 0.25 / 0.52, 12);
    // Resamples of clusters G (Brier 0.09) and H (0.16): GG 0.64, GH 0.5, HH 0.36.
    expect(e.T2.ci_low).toBeCloseTo(0.36, 12);
    expect(e.T2.ci_high).toBeCloseTo(0.64, 12);
    expect(e.delta_t1_t2.value).toBeCloseTo(0.34, 12);
    expect(e.delta_t1_t2.ci_low).toBeCloseTo(0.84 - 0.64, 12);
    expect(e.delta_t1_t2.ci_high).toBeCloseTo(0.84 - 0.36, 12);
    expect(e.t3_pending).toEqual({ open: 1, answered: 0 });
    expect(row('base_rate', 'EVT').T2.score).toBeCloseTo(1 - 0.26 / 0.25, 12);
    expect(row('base_rate', 'EVT').T2.metrics.brier_skill_vs_base_rate).toBe(0);
    expect(row('coin_flip', 'EVT').T2.score).toBe(0);
  });

  it('FUND: truncated utility 0.75 then 0 (truncated); last value 0.5 and 0.5', () => {
    const f = row('m1', 'FUND');
    expect([f.T1.score, f.T2.score, f.delta_t1_t2.value]).toEqual([0.75, 0, 0.75]);
    expect([f.delta_t1_t2.ci_low, f.delta_t1_t2.ci_high]).toEqual([0.75, 0.75]);
    const l = row('last_value', 'FUND');
    expect([l.T1.score, l.T2.score]).toEqual([0.5, 0.5]);
  });

  it('writes results.json, leaderboard.md and a question-scores manifest naming the questions folder', async () => {
    const dir = join(work, 's');
    const written = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(written).toEqual(JSON.parse(JSON.stringify(results)));
    const verified = await openVerifiedManifest(join(dir, 'manifest.json'));
    try {
      expect(verified.manifest.kind).toBe('question-scores');
      expect(verified.manifest.parent_dataset_id).toBe(questionsId);
      expect(verified.files().map((f) => f.output.path)).toEqual(['results.json', 'leaderboard.md']);
      expect(verified.manifest.inputs.map((i) => i.key)).toEqual([
        'manifest.json',
        'questions.jsonl',
        'resolutions.jsonl',
        'baselines.jsonl',
        'm1.csv',
      ]);
    } finally {
      verified.close();
    }
    const board = readFileSync(join(dir, 'leaderboard.md'), 'utf8');
    expect(board).toContain('## EVT: probability of an event');
    expect(board).toContain('1 T3 instances are open at the run date (pending, not scored)');
    expect(board).toMatch(
      /\| m1 \| 0\.840 \[0\.840, 0\.840\] \| 0\.500 \[0\.360, 0\.640\] \| 0\.340 \[0\.200, 0\.480\] \| 1\/1 \| 2\/2 \|/,
    );
    expect(board).toContain('| 1/2 (partial) |');
    // models by T2 score within a family: m1 (0.5) before coin_flip (0) before base_rate (−0.04)
    const evt = board.slice(board.indexOf('## EVT'), board.indexOf('## FUND'));
    expect(evt.indexOf('| m1 ')).toBeLessThan(evt.indexOf('| coin\\_flip (baseline)'));
    expect(evt.indexOf('| coin\\_flip')).toBeLessThan(evt.indexOf('| base\\_rate'));
  });

  it('is deterministic from the seed: the same bytes again; another seed moves the intervals only', async () => {
    await scoreQuestions({ questionsDir: qdir, answerFiles: [answers], outDir: join(work, 's2') });
    expect(readFileSync(join(work, 's2', 'results.json'))).toEqual(
      readFileSync(join(work, 's', 'results.json')),
    );
    expect(readFileSync(join(work, 's2', 'manifest.json'))).toEqual(
      readFileSync(join(work, 's', 'manifest.json')),
    );
    const other = await scoreQuestions({
      questionsDir: qdir,
      answerFiles: [answers],
      outDir: join(work, 's3'),
      seed: 7,
    });
    expect(other.results.rows.map((r) => r.T2.score)).toEqual(results.rows.map((r) => r.T2.score));
    expect(other.results.config.seed).toBe(7);
  });

  it('refuses a questions folder with an edited byte, and writes nothing', async () => {
    const copy = join(work, 'q-edited');
    await writeQuestionsFixture(copy);
    appendFileSync(join(copy, 'resolutions.jsonl'), ' ');
    const err = await scoreQuestions({
      questionsDir: copy,
      answerFiles: [answers],
      outDir: join(work, 'x'),
    }).catch((e) => e);
    expect(err).toBeInstanceOf(AsofError);
    expect(err.code).toBe('MANIFEST_MISMATCH');
    expect(err.message).toContain('resolutions.jsonl');
    expect(existsSync(join(work, 'x'))).toBe(false);
  });

  it('refuses a manifest of another kind, and bad answers before writing anything', async () => {
    const uni = join(work, 'not-questions');
    await writeQuestionsFixture(uni, undefined, { kind: 'universe' });
    const err = await scoreQuestions({ questionsDir: uni, answerFiles: [], outDir: join(work, 'y') }).catch(
      (e) => e,
    );
    expect(err.code).toBe('QUESTIONS_NOT_A_QUESTIONS_FOLDER');
    expect(err.exitCode).toBe(2);
    const bad = join(work, 'bad.csv');
    writeFileSync(bad, 'instance_id,answer\ne1,1.5\n');
    const refused = await scoreQuestions({
      questionsDir: qdir,
      answerFiles: [bad],
      outDir: join(work, 'z'),
    }).catch((e) => e);
    expect(refused.code).toBe('ANSWERS_PROBABILITY_RANGE');
    expect(refused.message).toContain(`${bad}: row 2, field answer: 1.5`);
    expect(existsSync(join(work, 'z'))).toBe(false);
  });
});
