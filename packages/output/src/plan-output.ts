import { basename, dirname, resolve } from 'node:path';
import { inspectOutputTarget, type TargetState } from './inspect-output-target.ts';
import { OutputRefusedError } from './output-errors.ts';
import { checkOutputWritable } from './output-io-error.ts';
import { isSameOrInside, resolveRealPath } from './resolve-real-path.ts';
import { STORE_DIR, storeOf } from './store-layout.ts';
import { STORE_MARKER, storeContainerProblem } from './store-owner.ts';

/**
 * The kinds of output asof writes: a manifest's `kind` for folder outputs with a manifest, 'scores' for a
 * results folder, the Parquet asof entry's `kind` for forecasts files, 'report' for an HTML report.
 */
export type OutputKind =
  | 'universe'
  | 'split'
  | 'csv-export'
  | 'fintsb-export'
  | 'publish'
  | 'nixtla-export'
  | 'qlib-export'
  | 'questions'
  | 'question-scores'
  | 'scores'
  | 'forecasts'
  | 'report';

const KIND_WORDS: Record<string, string> = {
  universe: 'a universe',
  split: 'a split',
  'csv-export': 'a CSV export',
  'fintsb-export': 'a FinTSB export',
  publish: 'a published dataset (asof publish)',
  'nixtla-export': 'a Nixtla export',
  'qlib-export': 'a Qlib export',
  questions: 'forecast questions (asof questions)',
  'question-scores': 'question scores (asof score-questions)',
  scores: 'scores (results.json)',
  forecasts: 'a forecasts file',
  report: 'a report',
};
const kindWords = (kind: string) => KIND_WORDS[kind] ?? `an asof output of kind "${kind}"`;

export interface OutputOptions {
  /** The command, for messages and the lock (e.g. 'asof build'). */
  command: string;
  /**
   * The kind of output the command writes: an existing asof output is replaced only when it is of the
   * same kind (issue 52: `score --out <a universe>` must not delete the universe).
   */
  writes: OutputKind;
  /** The flag that named the output, for messages (default '--out'). */
  flag?: string;
  /**
   * Every path the command reads (files or folders: manifests, their folders, raw folders, the pipeline,
   * caches). The output may not be one of them, lie inside one, or contain one.
   */
  inputs?: readonly string[];
}

export interface OutputPlan {
  kind: 'dir' | 'file';
  /** What the user named, as given. */
  requested: string;
  /** The output path, its parent resolved with realpath (the last component is the output itself). */
  target: string;
  /** `<parent>/.asof/<name>`: generations, temp folders, lock. */
  store: string;
  state: TargetState;
}

function describe(path: string, requested: string): string {
  return path === resolve(requested) ? path : `${requested} (${path})`;
}

/**
 * Decides where an output goes and whether asof may replace what is there (docs/decisions/0010): any
 * path, absolute or relative, resolved with realpath first; replaced only when absent, empty, or written
 * by asof; never one of the command's inputs, inside one, or around one. Throws OutputRefusedError
 * (exit 2) naming the path and what is in it. Runs before any work, and again just before the switch.
 * Before the work (`probe`, the default) it also checks that the output's folder can be written and its disk
 * is not full (OutputIoError, exit 1): a read-only or full disk is found before the work, not after it.
 */
export function planOutput(
  requested: string,
  kind: 'dir' | 'file',
  options: OutputOptions,
  cwd: string = process.cwd(),
  { probe = true }: { probe?: boolean } = {},
): OutputPlan {
  const flag = options.flag ?? '--out';
  const abs = resolve(cwd, requested);
  // The output itself may be asof's generation link (replaced as a link); any other symlink is followed,
  // so a user's link to a data disk writes there, checked there.
  let target = resolveRealPath(abs, { followLast: false });
  let state = inspectOutputTarget(target, kind);
  if (state.state === 'foreign' && state.what.startsWith('a symlink')) {
    target = resolveRealPath(abs);
    state = inspectOutputTarget(target, kind);
  }
  const where = describe(target, requested);
  if (target === '/') {
    throw new OutputRefusedError(
      'OUTPUT_NOT_ALLOWED',
      `${flag} ${where}: the root folder cannot be an output; choose a folder of its own, e.g. out/mybuild`,
      { context: { file: target, value: requested } },
    );
  }
  const store = storeOf(target);
  const outputSide = [target, store];
  if (state.state === 'generation') outputSide.push(resolveRealPath(target));
  for (const input of options.inputs ?? []) {
    const absInput = resolve(cwd, input);
    for (const inputPath of new Set([absInput, resolveRealPath(absInput)])) {
      const hit = outputSide.find((o) => isSameOrInside(inputPath, o) || isSameOrInside(o, inputPath));
      if (hit) {
        throw new OutputRefusedError(
          'OUTPUT_OVERLAPS_INPUT',
          `${flag} ${where} ${isSameOrInside(hit, inputPath) ? (hit === inputPath ? 'is' : 'lies inside') : 'contains'} ${input}, which this command reads; write the output somewhere else, e.g. beside it`,
          { context: { file: target, value: requested, input } },
        );
      }
    }
  }
  if (state.state === 'foreign') {
    throw new OutputRefusedError(
      kind === 'dir' && state.what.startsWith('a file') ? 'OUTPUT_IS_FILE' : 'OUTPUT_NOT_ASOF',
      `${flag} ${where} is ${state.what}; asof replaces only an absent or empty ${kind === 'dir' ? 'folder' : 'file path'} or one it wrote itself${kind === 'dir' ? ' (holding an asof manifest.json or results.json)' : ' (an asof Parquet file or report)'}; choose another ${flag}`,
      { context: { file: target, value: requested } },
    );
  }
  checkStoreFolder(target, where, flag, requested);
  checkKind(state, options, where, flag, requested, target);
  if (target.split('/').includes(STORE_DIR)) {
    throw new OutputRefusedError(
      'OUTPUT_NOT_ALLOWED',
      `${flag} ${where}: a path inside an output asof wrote (its .asof store of generations) cannot be an output; choose a folder of its own, e.g. out/mybuild`,
      { context: { file: target, value: requested } },
    );
  }
  if (probe) checkOutputWritable(target, flag, requested);
  return { kind, requested, target, store, state };
}

/** The output's `<parent>/.asof` must be one asof may write and clean (store-owner.ts); checked before any work. */
function checkStoreFolder(target: string, where: string, flag: string, requested: string): void {
  if (basename(target) === STORE_MARKER) {
    throw new OutputRefusedError(
      'OUTPUT_NOT_ALLOWED',
      `${flag} ${where}: the name ${STORE_MARKER} is reserved for asof's store marker; choose another name`,
      { context: { file: target, value: requested } },
    );
  }
  const container = resolve(dirname(target), STORE_DIR);
  const problem = storeContainerProblem(container, 'check');
  if (problem) {
    throw new OutputRefusedError(
      'OUTPUT_STORE_NOT_ASOF',
      `${flag} ${where}: ${container} ${problem}; asof keeps its generations only in a real .asof folder it made itself — move that away or choose another ${flag}`,
      { context: { file: container, value: requested } },
    );
  }
}

/** An asof output is replaced only by a command that writes the same kind. */
function checkKind(
  state: TargetState,
  options: OutputOptions,
  where: string,
  flag: string,
  requested: string,
  target: string,
): void {
  if (state.state !== 'generation' && state.state !== 'asof-dir' && state.state !== 'asof-file') return;
  if (state.holds === null || state.holds === options.writes) return;
  const remove = state.state === 'generation' ? `rm -r ${target} ${storeOf(target)}` : `rm -r ${target}`;
  throw new OutputRefusedError(
    'OUTPUT_OTHER_KIND',
    `${flag} ${where} holds ${kindWords(state.holds)} (kind "${state.holds}"), but ${options.command} writes ${kindWords(options.writes)} and replaces only its own kind; choose another ${flag}, or delete it first if you mean to (${remove})`,
    { context: { file: target, value: requested, holds: state.holds, writes: options.writes } },
  );
}
