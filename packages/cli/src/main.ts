import { Duck } from '@asof/duck';
import { cleanStaleTemps, installSignalCleanup } from '@asof/output';
import { AsofError } from '@asof/schema';
import { BASELINES_USAGE, baselinesCommand } from './baselines-command.ts';
import { ASOF_VERSION } from './build-universe.ts';
import {
  BUILD_USAGE,
  buildCommand,
  type Io,
  SHOW_USAGE,
  showCommand,
  TAXONOMY_USAGE,
  taxonomyCommand,
  VERIFY_USAGE,
  verifyCommand,
} from './commands.ts';
import { DIFF_USAGE, diffCommand } from './diff-command.ts';
import { EXPORT_USAGE, exportCommand } from './export-command.ts';
import { EXPORT_CSV_USAGE } from './export-csv-command.ts';
import { INGEST_USAGE, ingestCommand } from './ingest-command.ts';
import { REPORT_USAGE, reportCommand } from './report-command.ts';
import { RUN_USAGE, runCommand } from './run-command.ts';
import { SCORE_USAGE, scoreCommand } from './score-command.ts';
import { SERIES_USAGE, seriesCommand } from './series-command.ts';
import { SPLIT_USAGE, splitCommand } from './split-command.ts';
import { UPDATE_USAGE, updateCommand } from './update-command.ts';

const COMMANDS: Record<string, (args: string[], io: Io) => Promise<number>> = {
  build: buildCommand,
  update: updateCommand,
  diff: diffCommand,
  ingest: ingestCommand,
  baselines: baselinesCommand,
  score: scoreCommand,
  run: runCommand,
  export: exportCommand,
  report: reportCommand,
  split: splitCommand,
  verify: verifyCommand,
  series: seriesCommand,
  show: showCommand,
  taxonomy: taxonomyCommand,
};

const USAGE = `asof — point-in-time-correct financial benchmark universes

  ${BUILD_USAGE}
  ${UPDATE_USAGE}
  ${DIFF_USAGE}
  ${INGEST_USAGE}
  ${SPLIT_USAGE}
  ${BASELINES_USAGE}
  ${SCORE_USAGE}
  ${RUN_USAGE}
  ${EXPORT_USAGE}
  ${EXPORT_CSV_USAGE}
  ${REPORT_USAGE}
  ${VERIFY_USAGE}
  ${SERIES_USAGE}
  ${SHOW_USAGE}
  ${TAXONOMY_USAGE}

Each command takes --help; asof --version prints the versions.
`;

/** `asof --version`: this asof and the DuckDB it writes every Parquet file with (both are in every manifest). */
async function versionText(): Promise<string> {
  const duck = await Duck.open({ threads: 1 });
  try {
    return `asof ${ASOF_VERSION}\nDuckDB ${await duck.version()} (@duckdb/node-api)\nNode.js ${process.version}\n`;
  } finally {
    duck.close();
  }
}

/** Runs one asof command line; returns the exit code (0 ok, 1 failure, 2 bad input). */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(await versionText());
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(
      `asof: unknown command '${name}'\n  hint: one of ${Object.keys(COMMANDS).join(', ')}; see asof --help\n`,
    );
    return 2;
  }
  try {
    // Whatever a killed asof process left (temp folders, DuckDB files, locks) goes first, whatever the command.
    cleanStaleTemps();
    return await command(rest, io);
  } catch (err) {
    if (err instanceof AsofError) {
      io.err(`asof ${name}: ${err.message}\n`);
      return err.exitCode;
    }
    io.err(`asof ${name}: unexpected failure: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

if (
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith('/asof') ||
  process.argv[1]?.endsWith('asof.mjs')
) {
  installSignalCleanup((line) => process.stderr.write(`asof: ${line}\n`));
  const code = await runCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    cwd: process.cwd(),
  });
  process.exitCode = code;
}
