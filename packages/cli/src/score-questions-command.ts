import { join, resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { byT2Score, formatScore, QUESTION_FAMILIES, scoreQuestions } from '@asof/questions';
import { InputError, shownValue } from '@asof/schema';
import { type Io, shown } from './commands.ts';
import { formatTable } from './format-table.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const SCORE_QUESTIONS_USAGE =
  'asof score-questions --questions DIR --answers FILE [--answers FILE…] --out DIR [--seed S] [--json]';

const HELP = `${SCORE_QUESTIONS_USAGE}

Scores answers to the forecast questions 'asof questions' wrote (packages/questions/README.md) and the
folder's baselines (last value, base rate, 0.5, momentum, random: always scored), per family and window:
VAL error reduction against the close at t, RANK normalised Spearman (and top-K hit rate), EVT Brier skill
against 0.5 (and against the base rate), FUND a truncated utility (docs/decisions/0069). Each T1 and T2 score
has a 95% percentile interval from 1000 bootstrap resamples of clusters (cluster_id), and Δ(T1,T2) = T1 − T2,
the memorisation gap, has its own. T3 instances are open at the run date: counted, never scored. The
questions folder's manifest is verified first (an edited byte stops the run). Writes DIR/results.json,
DIR/leaderboard.md and DIR/manifest.json (kind 'question-scores').

  --questions  the folder 'asof questions --out DIR' wrote
  --answers    an answers file, CSV (instance_id,answer[,model]) or JSONL ({"instance_id", "answer"[, "model"]});
               without a model the model is the file name without its extension; RANK answers in CSV are
               series ids joined by ;. Repeat for several files. An instance may be left unanswered
               (coverage is reported); a bad row stops the run naming file, row, field and value.
  --out        output folder (replaced only if empty or written by asof)
  --seed       seed of the bootstrap draws, an integer from 0 to 4294967295 (default 0)
  --json       print a JSON summary instead of tables
`;

function parseSeed(text: string | undefined): number {
  if (text === undefined) return 0;
  const seed = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(seed) || seed > 0xffffffff) {
    throw new InputError(
      'USAGE',
      `--seed ${shownValue(text)}: expected an integer from 0 to 4294967295\n  usage: ${SCORE_QUESTIONS_USAGE}`,
      { context: { field: 'seed', value: text } },
    );
  }
  return seed;
}

/** `asof score-questions`: parse, call scoreQuestions (@asof/questions), print the per-family summary. */
export async function scoreQuestionsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      questions: { type: 'string' },
      answers: { type: 'string', multiple: true },
      out: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean' },
    },
    SCORE_QUESTIONS_USAGE,
  );
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length > 0) {
    throw new InputError(
      'USAGE',
      `unexpected argument ${shownValue(positionals[0])}\n  usage: ${SCORE_QUESTIONS_USAGE}`,
    );
  }
  const answers = (values.answers as string[] | undefined) ?? [];
  if (typeof values.questions !== 'string' || typeof values.out !== 'string' || answers.length === 0) {
    throw new InputError(
      'USAGE',
      `--questions, --answers and --out are required\n  usage: ${SCORE_QUESTIONS_USAGE}`,
    );
  }
  const seed = parseSeed(values.seed as string | undefined);
  const git = await gitState(io.cwd);
  const result = await scoreQuestions({
    questionsDir: resolve(io.cwd, values.questions),
    answerFiles: answers.map((a) => resolve(io.cwd, a)),
    outDir: resolve(io.cwd, values.out),
    seed,
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
    log: (line) => io.err(`asof score-questions: ${line}\n`),
  });
  const r = result.results;
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, results: result.resultsPath, leaderboard: result.leaderboardPath, dataset_id: result.manifest.dataset_id, parent_dataset_id: result.manifest.parent_dataset_id, instances: r.instances, models: r.models, rows: r.rows })}\n`,
    );
  } else {
    for (const family of QUESTION_FAMILIES) {
      const rows = r.rows.filter((x) => x.family === family).sort(byT2Score);
      const counts = r.instances.find((i) => i.family === family);
      if (counts === undefined || rows.length === 0) continue;
      io.out(
        `${family} (${rows[0].metric}; ${counts.T1} T1, ${counts.T2} T2, ${counts.T3} T3 open)\n${formatTable(
          ['model', 'T1', 'T2', 'Δ(T1,T2)', 'coverage T2'],
          rows.map((x) => [
            `${x.model}${x.baseline ? ' (baseline)' : ''}`,
            formatScore(x.T1.score),
            formatScore(x.T2.score),
            formatScore(x.delta_t1_t2.value),
            `${x.T2.n}/${x.T2.total}${x.T2.partial ? ' partial' : ''}`,
          ]),
        )}\n\n`,
      );
    }
    io.out(
      `results     ${result.resultsPath}\nleaderboard ${result.leaderboardPath} (with the 95% intervals)\ndataset_id  ${result.manifest.dataset_id} (parent ${result.manifest.parent_dataset_id})\n`,
    );
  }
  const out = shown(io, resolve(io.cwd, values.out));
  nextHint(
    io,
    `asof report --manifest ${join(shown(io, resolve(io.cwd, values.questions)), 'manifest.json')} --results ${join(out, 'results.json')} --out ${out}-report.html`,
  );
  return 0;
}
