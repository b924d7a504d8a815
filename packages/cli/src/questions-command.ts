import { resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { DEFAULT_PER_FAMILY, FAMILIES, type Family, generateQuestions } from '@asof/questions';
import { InputError, shownValue } from '@asof/schema';
import { parseInstantArg } from '@asof/split';
import { type Io, shown } from './commands.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const QUESTIONS_USAGE =
  'asof questions --manifest M --model-cutoff DATE --run-date DATE --out DIR [--families VAL,RANK,EVT,FUND] [--per-family N] [--seed S] [--price-lookback N|all] [--json]';

const HELP = `${QUESTIONS_USAGE}

Generates FinForesight's forecast questions for a model knowledge cutoff from a universe as known at the
run date (a date means 00:00 UTC, as in asof split), resolved on first releases (packages/questions/README.md,
docs/decisions/0070):
  VAL   a stock's as-traded close 5 or 21 trading days after t (baseline: the close at t)
  RANK  up to 10 index members at t, ordered by 21-day return (baselines: momentum, random)
  EVT   a probability: a macro series' first release above the previous period's, a company's first-reported
        quarterly revenue above the same quarter a year earlier, a close above the close at t in 21 days
        (baselines: base rate, 0.5)
  FUND  a company's next first-reported quarterly revenue, net income, diluted EPS or operating cash flow
        (baseline: the last first-reported value)
Each instance is T1 (answer public before the cutoff), T2 (asked after it, answered by the run date) or T3
(open at the run date). --per-family N (default ${DEFAULT_PER_FAMILY}) instances per family and window, chosen by
--seed (default 0). Writes DIR/questions.jsonl|parquet (what a system reads), resolutions.jsonl|parquet
(the key: keep it from the system), baselines.jsonl|parquet, inputs.parquet (each instance's rows with
available_at <= t: a stock's last --price-lookback bars, default 260 or all, other series whole) and
manifest.json; prints the counts per family and window and how many answers
revised values would move or flip.
`;

/** `asof questions`: forecast questions for a model cutoff, resolved on first releases. */
export async function questionsCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      out: { type: 'string' },
      'model-cutoff': { type: 'string' },
      'run-date': { type: 'string' },
      families: { type: 'string' },
      'per-family': { type: 'string' },
      seed: { type: 'string' },
      'price-lookback': { type: 'string' },
      json: { type: 'boolean' },
    },
    QUESTIONS_USAGE,
  );
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v.help) {
    io.out(HELP);
    return 0;
  }
  if (parsed.positionals.length > 0) {
    throw new InputError(
      'USAGE',
      `unexpected argument ${parsed.positionals[0]}\n  usage: ${QUESTIONS_USAGE}`,
    );
  }
  for (const flag of ['manifest', 'out', 'model-cutoff', 'run-date']) {
    if (typeof v[flag] !== 'string') {
      throw new InputError('USAGE', `--${flag} is required\n  usage: ${QUESTIONS_USAGE}`);
    }
  }
  const git = await gitState(io.cwd);
  const result = await generateQuestions({
    manifestPath: resolve(io.cwd, v.manifest as string),
    outDir: resolve(io.cwd, v.out as string),
    modelCutoff: parseInstantArg(v['model-cutoff'] as string, '--model-cutoff'),
    runDate: parseInstantArg(v['run-date'] as string, '--run-date'),
    families: typeof v.families === 'string' ? parseFamilies(v.families) : undefined,
    perFamily: typeof v['per-family'] === 'string' ? parsePerFamily(v['per-family']) : undefined,
    seed: typeof v.seed === 'string' ? v.seed : undefined,
    priceLookbackBars:
      typeof v['price-lookback'] === 'string' ? parsePriceLookback(v['price-lookback']) : undefined,
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
  });
  const m = result.manifest;
  const summary = m.summary as unknown as QuestionsSummary;
  if (v.json) {
    io.out(`${JSON.stringify({ manifest: result.manifestPath, dataset_id: m.dataset_id, summary })}\n`);
  } else {
    io.out(formatQuestionCounts(summary));
    io.out(`dataset_id ${m.dataset_id} (parent ${m.parent_dataset_id})\nmanifest   ${result.manifestPath}\n`);
  }
  nextHint(
    io,
    `give ${shown(io, resolve(io.cwd, v.out as string, 'questions.jsonl'))} to a system, then asof score-questions --questions ${shown(io, resolve(io.cwd, v.out as string))} --answers FILE --out DIR`,
  );
  return 0;
}

interface QuestionsSummary {
  instances: number;
  per_family_window: Record<
    string,
    Record<string, { instances: number; clusters: number; resolved: number }>
  >;
  revisions: Record<string, { resolved: number; moved: number; flipped: number; examples: string[] }>;
}

function formatQuestionCounts(s: QuestionsSummary): string {
  const lines = [`${s.instances} question instance(s): instances (clusters) per family and window`];
  lines.push(`  ${'family'.padEnd(6)} ${['T1', 'T2', 'T3'].map((w) => w.padStart(10)).join(' ')}`);
  for (const family of FAMILIES) {
    const cells = s.per_family_window[family];
    if (!cells) continue;
    const shownCell = (w: string) => (cells[w] ? `${cells[w].instances} (${cells[w].clusters})` : '0');
    lines.push(`  ${family.padEnd(6)} ${['T1', 'T2', 'T3'].map((w) => shownCell(w).padStart(10)).join(' ')}`);
  }
  lines.push('resolved on first releases; on the latest values instead:');
  for (const family of FAMILIES) {
    const r = s.revisions[family];
    if (!r) continue;
    lines.push(`  ${family}: ${r.moved} of ${r.resolved} answers would move, ${r.flipped} would flip`);
    for (const e of r.examples) lines.push(`    e.g. ${e}`);
  }
  return `${lines.join('\n')}\n`;
}

function parseFamilies(text: string): Family[] {
  const names = text.split(',').map((f) => f.trim().toUpperCase());
  for (const name of names) {
    if (!(FAMILIES as readonly string[]).includes(name)) {
      throw new InputError(
        'USAGE',
        `--families ${shownValue(text)}: unknown family ${shownValue(name)}\n  hint: a comma-separated subset of ${FAMILIES.join(',')}`,
      );
    }
  }
  return FAMILIES.filter((f) => names.includes(f));
}

function parsePerFamily(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) {
    throw new InputError(
      'USAGE',
      `--per-family ${shownValue(text)}: expected a whole number from 1 to 100000\n  hint: instances kept per family and window, e.g. --per-family 50`,
    );
  }
  return n;
}

function parsePriceLookback(text: string): number | null {
  if (text === 'all') return null;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) {
    throw new InputError(
      'USAGE',
      `--price-lookback ${shownValue(text)}: expected a whole number of bars from 1, or all\n  hint: bars of price history each instance's inputs reach back, e.g. --price-lookback 260`,
    );
  }
  return n;
}
