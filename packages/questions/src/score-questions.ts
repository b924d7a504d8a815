import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  finalizeDerivedManifest,
  manifestOutput,
  openVerifiedManifest,
  parentInputs,
  writeDerivedDir,
  writeManifest,
} from '@asof/manifest';
import { InputError, type Manifest } from '@asof/schema';
import { buildQuestionScores, type QuestionScores } from './build-question-scores.ts';
import { type AnswersFileFacts, type ModelAnswers, parseAnswers } from './parse-answers.ts';
import { readQuestionsFolder } from './read-questions-folder.ts';
import { renderQuestionsLeaderboard } from './render-questions-leaderboard.ts';

/** The manifest and output kind of a score-questions folder. */
export const QUESTION_SCORES_KIND = 'question-scores';

/** The README's baseline names: an answers file may not take them even when the folder has none of them. */
export const QUESTION_BASELINE_NAMES = [
  'last_value',
  'base_rate',
  'coin_flip',
  'momentum',
  'random',
] as const;

/** Bootstrap resamples per score (docs/decisions/0069). */
export const QUESTION_BOOTSTRAP_RESAMPLES = 1000;

export interface ScoreQuestionsOptions {
  /** The folder `asof questions --out DIR` wrote (its manifest.json is opened verified). */
  questionsDir: string;
  /** CSV or JSONL answers files (packages/questions/README.md); may be empty: the baselines alone. */
  answerFiles: string[];
  outDir: string;
  /** Seed of the bootstrap's draws (default 0). */
  seed?: number;
  /** The tool version and checkout that scored (default: the questions folder's version, no git state). */
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  log?: (line: string) => void;
}

export interface ScoreQuestionsResult {
  results: QuestionScores;
  manifest: Manifest;
  manifestPath: string;
  resultsPath: string;
  leaderboardPath: string;
}

/**
 * `asof score-questions`: verifies the questions folder, reads its questions, resolutions and baselines and
 * the answers files, scores every model per family and window with cluster-bootstrap intervals
 * (docs/decisions/0069), and writes results.json, leaderboard.md and a manifest (kind 'question-scores',
 * parent = the questions folder) through writeDerivedDir. Bad answers stop it before anything is written.
 */
export async function scoreQuestions(options: ScoreQuestionsOptions): Promise<ScoreQuestionsResult> {
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 0;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new InputError('USAGE', `seed ${seed}: expected an integer from 0 to 4294967295`, {
      context: { field: 'seed', value: seed },
    });
  }
  const manifestPath = join(resolve(options.questionsDir), 'manifest.json');
  const verified = await openVerifiedManifest(manifestPath, {
    label: join(options.questionsDir, 'manifest.json'),
  });
  try {
    const folder = await verified.guard(async () => readQuestionsFolder(verified));
    const reserved = new Set<string>([...QUESTION_BASELINE_NAMES, ...folder.baselines.map((b) => b.model)]);
    const answers: ModelAnswers = new Map();
    const facts: AnswersFileFacts[] = [];
    for (const file of options.answerFiles) {
      const parsed = parseAnswers(file, { questions: folder.questions, reserved, into: answers });
      facts.push(parsed.facts);
      log(`${file}: ${parsed.facts.rows} answers of ${parsed.facts.models.join(', ')}`);
    }
    const results = buildQuestionScores(folder, answers, facts, {
      seed,
      resamples: QUESTION_BOOTSTRAP_RESAMPLES,
    });
    log(
      `${results.models.length} models scored (${results.models.filter((m) => m.baseline).length} baselines)`,
    );
    const manifest = await writeDerivedDir(
      verified,
      {
        outDir: options.outDir,
        manifestPath,
        command: 'asof score-questions',
        writes: QUESTION_SCORES_KIND,
      },
      async ({ dir }) => {
        const texts: [string, string, string, string[]][] = [
          [
            'results.json',
            'results',
            `${JSON.stringify(results, null, 2)}\n`,
            ['format:json', 'results_version:1'],
          ],
          ['leaderboard.md', 'leaderboard', renderQuestionsLeaderboard(results), ['format:markdown']],
        ];
        const outputs = [];
        for (const [path, table, text, columns] of texts) {
          writeFileSync(join(dir, path), text);
          outputs.push(
            await manifestOutput(dir, {
              path,
              table,
              rows: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
              columns,
              min_timestamp: null,
              max_timestamp: null,
              min_available_at: null,
              max_available_at: null,
            }),
          );
        }
        const m = finalizeDerivedManifest(verified.manifest, {
          suffix: 'scores',
          kind: QUESTION_SCORES_KIND,
          // Scoring reads JSONL without DuckDB.
          duckdbVersion: 'none',
          createdBy: options.createdBy,
          config: { ...results.config, answers: facts.map((f) => f.name) },
          inputs: [
            ...parentInputs(verified, folder.files),
            ...facts.map((f) => ({ source: 'answers', key: f.name, sha256: f.sha256, bytes: f.bytes })),
          ],
          outputs,
          warnings: [],
          summary: {
            models: results.models.length,
            baselines: results.models.filter((m) => m.baseline).length,
            rows: results.rows.length,
            instances: results.instances,
          },
        });
        writeManifest(join(dir, 'manifest.json'), m);
        return m;
      },
      (m: Manifest) => m,
    );
    const outDir = resolve(options.outDir);
    return {
      results,
      manifest,
      manifestPath: join(outDir, 'manifest.json'),
      resultsPath: join(outDir, 'results.json'),
      leaderboardPath: join(outDir, 'leaderboard.md'),
    };
  } finally {
    verified.close();
  }
}
