import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { withVerifiedManifest } from '@asof/manifest';
import { InputError } from '@asof/schema';
import type { QuestionScores } from './build-question-scores.ts';
import { QUESTION_SCORES_KIND } from './score-questions.ts';

/**
 * A results.json of `asof score-questions`, read only after its folder's manifest verified it (an edited
 * byte is refused as MANIFEST_MISMATCH), through the descriptor that was hashed.
 */
export async function readQuestionScores(resultsPath: string): Promise<QuestionScores> {
  const hint = "pass the results.json that 'asof score-questions --out DIR' wrote (DIR/results.json)";
  if (!existsSync(resultsPath) || !statSync(resultsPath).isFile()) {
    throw new InputError(
      'QUESTION_SCORES_NOT_FOUND',
      `--results ${resultsPath}: no such file\n  hint: ${hint}`,
      {
        context: { file: resultsPath },
      },
    );
  }
  const manifestPath = join(dirname(resultsPath), 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new InputError(
      'QUESTION_SCORES_NOT_A_SCORE',
      `${resultsPath}: no manifest.json beside it, so its bytes cannot be checked\n  hint: ${hint}`,
      { context: { file: resultsPath } },
    );
  }
  const bytes = await withVerifiedManifest(manifestPath, async (verified) => {
    const file = verified.files().find((f) => f.output.path === basename(resultsPath));
    if (verified.manifest.kind !== QUESTION_SCORES_KIND || file?.output.table !== 'results') {
      throw new InputError(
        'QUESTION_SCORES_NOT_A_SCORE',
        `${resultsPath}: not the results document of a question-scores folder (the manifest beside it is kind '${verified.manifest.kind}')\n  hint: ${hint}`,
        { context: { file: manifestPath, field: 'kind', value: verified.manifest.kind } },
      );
    }
    return readFileSync(file.readPath);
  });
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new InputError(
      'QUESTION_SCORES_INVALID',
      `${resultsPath}: not JSON (${(cause as Error).message})`,
      {
        cause,
        context: { file: resultsPath },
      },
    );
  }
  const r = doc as Partial<QuestionScores>;
  if (r?.results_version !== 1 || !Array.isArray(r.rows) || typeof r.questions_dataset_id !== 'string') {
    throw new InputError(
      'QUESTION_SCORES_INVALID',
      `${resultsPath}: not a results_version 1 document of asof score-questions\n  hint: score again with this asof`,
      { context: { file: resultsPath, field: 'results_version', value: r?.results_version } },
    );
  }
  return r as QuestionScores;
}
