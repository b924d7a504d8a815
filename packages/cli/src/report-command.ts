import { relative, resolve } from 'node:path';
import { buildReport } from '@asof/report';
import { InputError } from '@asof/schema';
import { type Io, shown } from './commands.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const REPORT_USAGE =
  'asof report --manifest M [--results DIR/results.json] [--series ID…] [--as-of DATE…] --out FILE.html [--json]';

const HELP = `${REPORT_USAGE}

Writes one self-contained HTML report (charts as inline SVG, no script, no network needed to view it) of a
universe, a split, a FinTSB export or a questions folder, detected from the manifest's kind. Every file the
manifest lists is re-hashed first and only those files are read; aggregates are computed in DuckDB, so no
raw observation is copied into the page.
  universe   coverage by scope / category / detail category / frequency, active series over time,
             publication lag per source and basis, vintages and revision sizes, movement patterns and
             ADF / lag-1 ACF / forecastability per category and frequency, warnings, dataset identity
  split      the train snapshot cut, evaluation origins over time, T1/T2/T3 windows against the model
             cutoff and run date, pending targets
  questions  a folder of 'asof questions' with --results DIR/results.json of 'asof score-questions': per
             family the leaderboard (T1, T2, Δ(T1,T2) with intervals, coverage) and T1 against T2 per model
  --results  a results.json of 'asof score' on this split: FinVerse ranks, the model × unit verdict grid
             (DM p-values in the cells), CRPS / coverage / QLIKE by horizon, where the baselines win; read
             only after the score folder's manifest.json verified it (an edited byte is refused)
  --series   (universe only, repeatable) a vintage view: first release, latest and as-of paths, revisions marked
  --as-of    (repeatable) the as-of dates of the vintage view (default: from the series' revision dates)
  --out      the .html file to write (replaced atomically)
`;

/** `asof report`: an HTML report of a universe, a split or a scoring run. */
export async function reportCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      results: { type: 'string' },
      series: { type: 'string', multiple: true },
      'as-of': { type: 'string', multiple: true },
      out: { type: 'string' },
      json: { type: 'boolean' },
    },
    REPORT_USAGE,
  );
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (positionals.length > 0) {
    throw new InputError('USAGE', `unexpected argument ${positionals[0]}\n  usage: ${REPORT_USAGE}`);
  }
  if (typeof values.manifest !== 'string' || typeof values.out !== 'string') {
    throw new InputError('USAGE', `expected --manifest and --out\n  usage: ${REPORT_USAGE}`);
  }
  if (!/\.html?$/i.test(values.out)) {
    throw new InputError(
      'USAGE',
      `--out ${values.out}: a report is one HTML file; name it *.html, e.g. out/default-report.html`,
    );
  }
  // One file, replaced in one rename and only if asof wrote it (docs/decisions/0010): any path, absolute or not.
  const outPath = resolve(io.cwd, values.out);
  const r = await buildReport({
    manifestPath: resolve(io.cwd, values.manifest),
    resultsPath: typeof values.results === 'string' ? resolve(io.cwd, values.results) : undefined,
    outPath,
    series: (values.series as string[] | undefined) ?? [],
    asOf: (values['as-of'] as string[] | undefined) ?? [],
    log: (line) => io.err(`asof report: ${line}\n`),
  });
  if (values.json) {
    io.out(`${JSON.stringify(r)}\n`);
  } else {
    io.out(
      `wrote ${relative(io.cwd, r.path) || r.path}: ${r.kind}${r.scoring ? ' + scoring' : ''} report, ${r.charts} charts, ${(r.bytes / 1e6).toFixed(2)} MB in ${r.seconds.toFixed(1)} s\n`,
    );
  }
  nextHint(io, `open ${shown(io, r.path)} in a browser (one file, no network needed)`);
  return 0;
}
