import { Duck } from '@asof/duck';
import { cleanStaleTemps, installSignalCleanup, outputIoError } from '@asof/output';
import { AsofError, InputError, nearestNames, shownValue, startCommandClock } from '@asof/schema';
import type { Io } from './commands.ts';
import { errorDocument, safeErrorText, wantsJson } from './error-document.ts';

type Command = (args: string[], io: Io) => Promise<number>;

/**
 * Each command's module is imported when it runs, not at start: `asof build` then loads none of the
 * scoring, report, runner or diff code (~0.9 s of the default build's wall time went to imports).
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  build: async () => (await import('./commands.ts')).buildCommand,
  update: async () => (await import('./update-command.ts')).updateCommand,
  diff: async () => (await import('./diff-command.ts')).diffCommand,
  ingest: async () => (await import('./ingest-command.ts')).ingestCommand,
  baselines: async () => (await import('./baselines-command.ts')).baselinesCommand,
  score: async () => (await import('./score-command.ts')).scoreCommand,
  'score-questions': async () => (await import('./score-questions-command.ts')).scoreQuestionsCommand,
  run: async () => (await import('./run-command.ts')).runCommand,
  export: async () => (await import('./export-command.ts')).exportCommand,
  publish: async () => (await import('./publish-command.ts')).publishCommand,
  questions: async () => (await import('./questions-command.ts')).questionsCommand,
  report: async () => (await import('./report-command.ts')).reportCommand,
  split: async () => (await import('./split-command.ts')).splitCommand,
  verify: async () => (await import('./commands.ts')).verifyCommand,
  series: async () => (await import('./series-command.ts')).seriesCommand,
  show: async () => (await import('./commands.ts')).showCommand,
  taxonomy: async () => (await import('./commands.ts')).taxonomyCommand,
};

/** `asof --help`: every command's usage, in the order a newcomer meets them. */
async function usageText(): Promise<string> {
  const [
    commands,
    update,
    diff,
    ingest,
    split,
    baselines,
    score,
    run,
    exp,
    csv,
    publish,
    report,
    series,
    questions,
    sq,
  ] = await Promise.all([
    import('./commands.ts'),
    import('./update-command.ts'),
    import('./diff-command.ts'),
    import('./ingest-command.ts'),
    import('./split-command.ts'),
    import('./baselines-command.ts'),
    import('./score-command.ts'),
    import('./run-command.ts'),
    import('./export-command.ts'),
    import('./export-csv-command.ts'),
    import('./publish-command.ts'),
    import('./report-command.ts'),
    import('./series-command.ts'),
    import('./questions-command.ts'),
    import('./score-questions-command.ts'),
  ]);
  return `asof — point-in-time-correct financial benchmark universes

  ${commands.BUILD_USAGE}
  ${update.UPDATE_USAGE}
  ${diff.DIFF_USAGE}
  ${ingest.INGEST_USAGE}
  ${split.SPLIT_USAGE}
  ${baselines.BASELINES_USAGE}
  ${score.SCORE_USAGE}
  ${run.RUN_USAGE}
  ${exp.EXPORT_USAGE}
  ${exp.EXPORT_INTEROP_USAGE}
  ${csv.EXPORT_CSV_USAGE}
  ${publish.PUBLISH_USAGE}
  ${questions.QUESTIONS_USAGE}
  ${sq.SCORE_QUESTIONS_USAGE}
  ${report.REPORT_USAGE}
  ${commands.VERIFY_USAGE}
  ${series.SERIES_USAGE}
  ${commands.SHOW_USAGE}
  ${commands.TAXONOMY_USAGE}

Each command takes --help; asof --version prints the versions.
`;
}

/** `asof --version`: this asof and the DuckDB it writes every Parquet file with (both are in every manifest). */
async function versionText(): Promise<string> {
  const { ASOF_VERSION } = await import('@asof/build');
  const duck = await Duck.open({ threads: 1 });
  try {
    return `asof ${ASOF_VERSION}\nDuckDB ${await duck.version()} (@duckdb/node-api)\nNode.js ${process.version}\n`;
  } finally {
    duck.close();
  }
}

/**
 * Runs one asof command line; returns the exit code (0 ok, 1 failure, 2 bad input). `startedAt`
 * (performance.now() ms) starts the clock every progress line is stamped from: the process's start when
 * asof runs as a program, this call when a test runs commands in one process.
 */
export async function runCli(argv: string[], io: Io, startedAt: number = performance.now()): Promise<number> {
  startCommandClock(startedAt);
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(await versionText());
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(await usageText());
    return name ? 0 : 2;
  }
  const json = wantsJson(rest);
  const load = COMMANDS[name];
  if (!load) {
    const error = new InputError(
      'UNKNOWN_COMMAND',
      `unknown command '${shownValue(name)}'; did you mean ${nearestNames(name, Object.keys(COMMANDS), 1)[0]}?\n  hint: one of ${Object.keys(COMMANDS).join(', ')}; see asof --help`,
      { context: { value: name } },
    );
    io.err(`asof: ${error.message}\n`);
    if (json) io.out(`${JSON.stringify(errorDocument(error, 2))}\n`);
    return 2;
  }
  // With --json, an error is also one JSON object on stdout, where the result would have been: a script
  // reads stdout either way, and a person still reads the line on stderr (docs/decisions/0063).
  const fail = (err: unknown, exit: number, line: string): number => {
    io.err(safeErrorText(line));
    if (json) io.out(`${JSON.stringify(errorDocument(err, exit))}\n`);
    return exit;
  };
  try {
    // Whatever a killed asof process left (temp folders, DuckDB files, locks) goes first, whatever the command;
    // a registry entry naming anything else is dropped with a warning (issue 52).
    cleanStaleTemps((line) => io.err(`asof ${name}: warning: ${line}\n`));
    const command = await load();
    return await command(rest, io);
  } catch (err) {
    if (err instanceof AsofError)
      return fail(
        err,
        err.exitCode,
        `asof ${name}: ${err.message}
`,
      );
    // A disk that is read-only or full, or a folder asof may not write, wherever it is met: one line naming
    // the path, the cause and the fix, never a stack trace (audit 14.1, 13.2b). A missing file is left to
    // the trace: here asof cannot tell a write's missing folder from a bug.
    const ioError = (err as NodeJS.ErrnoException)?.code === 'ENOENT' ? null : outputIoError(err);
    if (ioError)
      return fail(
        ioError,
        1,
        `asof ${name}: ${ioError.message}
`,
      );
    return fail(
      err,
      1,
      `asof ${name}: unexpected failure: ${(err as Error).stack ?? String(err)}
`,
    );
  }
}

if (
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith('/asof') ||
  process.argv[1]?.endsWith('asof.mjs')
) {
  installSignalCleanup((line) => process.stderr.write(`asof: ${line}\n`));
  // 0: performance.now() counts from the process's start, so the clock includes Node's start and imports.
  const code = await runCli(
    process.argv.slice(2),
    {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
      cwd: process.cwd(),
    },
    0,
  );
  process.exitCode = code;
}
