import { basename, dirname, join, resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { FREQUENCIES, InputError } from '@asof/schema';
import {
  LAYOUTS,
  type Layout,
  ORIGINS_POLICIES,
  type OriginsPolicy,
  runSplit,
  TARGET_VINTAGES,
  type TargetVintage,
} from '@asof/split';
import { type Io, shown } from './commands.ts';
import { formatTable } from './format-table.ts';
import { memoryLimitFlag } from './memory-limit-flag.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const SPLIT_USAGE =
  'asof split --manifest M [--out DIR] [--series GLOB…] [--unit S/C/D/F…] [--frequency F…] [--eval-start DATE] [--embargo N|P30D] [--origins all|non_overlapping] [--layout per_origin|compact] [--target-vintage first_release|latest] [--model-cutoff DATE --run-date DATE] [--dm] [--memory-limit SIZE] [--json]';

const HELP = `${SPLIT_USAGE}

Splits a built universe into release-date-aware training and evaluation files (docs/glossary.md: Split), under DIR
(default: out/<universe folder>-split), with a manifest naming the parent's dataset_id:
  train/observations.parquet, train/series.parquet   as-of snapshot strictly before eval_start − embargo
  origins.parquet    (series_id, origin, lookback_start, horizon_steps, target status, window)
  inputs.parquet     per origin, the as-of view at the origin, last lookback steps (docs/glossary.md: Lookback)
  targets.parquet    values at o+1..o+H from the chosen vintage, kept apart from the inputs

  --series GLOB            only series whose id matches (repeatable; * ? […] as in a shell),
                           e.g. --series 'syn:fred:*' --series 'syn:px:EQ000?:close'
  --unit S/C/D/F           only series of this taxonomy unit (repeatable), e.g.
                           --unit 'Macro/Prices/Consumer prices/M' (see asof taxonomy --coverage)
  --frequency F            only series of this frequency (repeatable or comma-separated: M,Q)
  --eval-start DATE        first origin date (default: the universe's eval_start)
  --embargo N|DURATION     days, or P30D / P2W / P1M / P1Y (default 0)
  --origins POLICY         non_overlapping (default; origins >= H steps apart) or all (every step)
  --layout L               per_origin (default: inputs per origin and timestamp, targets per origin
                           and step) or compact (each vintage / target step once; for --origins all)
  --target-vintage V       first_release (default) or latest
  --model-cutoff DATE      label origins T1/T2/T3 (FinForesight); needs --run-date
  --run-date DATE          targets public after it are pending; origins after it are not served
  --dm                     the split will be scored with a Diebold–Mariano test: refuses --origins all
  --memory-limit SIZE      DuckDB's memory limit for the split, e.g. 2GB or 50% (default: the universe's
                           duckdb.memory_limit); a universe built at a small limit may need more to split
Dates are YYYY-MM-DD (00:00 UTC) or ISO instants.
`;

export async function splitCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      out: { type: 'string' },
      series: { type: 'string', multiple: true },
      unit: { type: 'string', multiple: true },
      frequency: { type: 'string', multiple: true },
      'eval-start': { type: 'string' },
      embargo: { type: 'string' },
      origins: { type: 'string' },
      'target-vintage': { type: 'string' },
      layout: { type: 'string' },
      'model-cutoff': { type: 'string' },
      'run-date': { type: 'string' },
      dm: { type: 'boolean' },
      'memory-limit': { type: 'string' },
      json: { type: 'boolean' },
    },
    SPLIT_USAGE,
  );
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const lists = parsed.values as Record<string, string[] | undefined>;
  const frequencies = (lists.frequency ?? []).flatMap((f) =>
    f
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  for (const f of frequencies) {
    if (!(FREQUENCIES as readonly string[]).includes(f)) {
      throw new InputError(
        'USAGE',
        `--frequency ${f}: expected one of ${FREQUENCIES.join(', ')}\n  usage: ${SPLIT_USAGE}`,
      );
    }
  }
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  if (typeof values.manifest !== 'string') {
    throw new InputError(
      'USAGE',
      `--manifest is required (a universe's manifest.json)\n  usage: ${SPLIT_USAGE}`,
    );
  }
  const memoryLimit = memoryLimitFlag(values['memory-limit'] as string | undefined, SPLIT_USAGE);
  const origins = (values.origins as string | undefined) ?? 'non_overlapping';
  if (!(ORIGINS_POLICIES as readonly string[]).includes(origins)) {
    throw new InputError(
      'USAGE',
      `--origins ${origins}: expected one of ${ORIGINS_POLICIES.join(', ')}\n  usage: ${SPLIT_USAGE}`,
    );
  }
  const vintage = (values['target-vintage'] as string | undefined) ?? 'first_release';
  if (!(TARGET_VINTAGES as readonly string[]).includes(vintage)) {
    throw new InputError(
      'USAGE',
      `--target-vintage ${vintage}: expected one of ${TARGET_VINTAGES.join(', ')}\n  usage: ${SPLIT_USAGE}`,
    );
  }
  const layout = (values.layout as string | undefined) ?? 'per_origin';
  if (!(LAYOUTS as readonly string[]).includes(layout)) {
    throw new InputError(
      'USAGE',
      `--layout ${layout}: expected one of ${LAYOUTS.join(', ')}\n  usage: ${SPLIT_USAGE}`,
    );
  }
  const manifestPath = resolve(io.cwd, values.manifest);
  const outDir = resolve(
    io.cwd,
    (values.out as string | undefined) ?? `out/${basename(dirname(manifestPath))}-split`,
  );
  const git = await gitState(io.cwd);
  const result = await runSplit({
    manifestPath,
    outDir,
    evalStart: values['eval-start'] as string | undefined,
    embargo: values.embargo as string | undefined,
    origins: origins as OriginsPolicy,
    targetVintage: vintage as TargetVintage,
    layout: layout as Layout,
    modelCutoff: values['model-cutoff'] as string | undefined,
    runDate: values['run-date'] as string | undefined,
    dm: Boolean(values.dm),
    series: lists.series,
    units: lists.unit,
    frequencies,
    memoryLimit,
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
    log: (line) => io.err(`asof split: ${line}\n`),
  });
  const m = result.manifest;
  // The split's own warnings (the parent's travel in the manifest and are shown where the parent is read).
  for (const w of m.warnings.filter((x) => x.code === 'SPLIT_WINDOW_EMPTY'))
    io.err(`asof split: warning: ${w.message}\n`);
  const dir = shown(io, dirname(result.manifestPath));
  const hint = `asof baselines --manifest ${join(dir, 'manifest.json')} --out ${dir}-baselines.parquet`;
  if (values.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: m.dataset_id, parent_dataset_id: m.parent_dataset_id, seconds: result.seconds, config: m.config, summary: m.summary })}\n`,
    );
    nextHint(io, hint);
    return 0;
  }
  const s = m.summary as {
    by_frequency_window: { frequency: string; window: string; origins: number; series: number }[];
    origins_straddling_cutoff_dropped?: number;
    origins_not_member_dropped?: number;
  };
  const dropped =
    m.config.model_cutoff === null || m.config.model_cutoff === undefined
      ? ''
      : `dropped ${s.origins_straddling_cutoff_dropped ?? 0} origin(s) straddling the model cutoff (at or before it, targets known after it: the model saw part of the path)\n`;
  const members = s.origins_not_member_dropped
    ? `dropped ${s.origins_not_member_dropped} origin(s) of series not in the universe at the origin\n`
    : '';
  io.out(
    `${formatTable(
      ['file', 'rows', 'bytes'],
      m.outputs.map((o) => [o.path, o.rows, o.bytes]),
    )}\n\n${formatTable(
      ['freq', 'window', 'origins', 'series'],
      s.by_frequency_window.map((r) => [r.frequency, r.window, r.origins, r.series]),
    )}\n\n${dropped}${members}train cutoff ${String(m.config.train_cutoff)} (eval_start ${String(m.config.eval_start)} − ${String(m.config.embargo)}), origins ${origins}, targets ${vintage}\ndataset_id ${m.dataset_id} (parent ${m.parent_dataset_id})\nmanifest   ${result.manifestPath}\nsplit in ${result.seconds.toFixed(1)} s\n`,
  );
  nextHint(io, hint);
  return 0;
}
