import { dirname, join, resolve } from 'node:path';
import {
  loadPipeline,
  recordedPipelineFile,
  type UpdateResult,
  type UpdateStep,
  updateUniverse,
} from '@asof/build';
import { InputError } from '@asof/schema';
import { type Io, renderSummary, shown } from './commands.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const UPDATE_USAGE =
  'asof update --manifest OLD/manifest.json [pipeline.json] --out NEW [--offline] [--json]';

/** Steps of one kind condensed: per price instrument they are many, so they are counted. */
function renderSteps(steps: UpdateStep[]): string {
  const lines: string[] = [];
  const instruments = new Map<string, string[]>();
  for (const s of steps) {
    if (s.part.startsWith('prices ')) {
      const list = instruments.get(s.action) ?? [];
      list.push(
        s.part.slice('prices '.length) + (s.action === 'read again' && s.detail ? ` (${s.detail})` : ''),
      );
      instruments.set(s.action, list);
    } else lines.push(`  ${s.part.padEnd(10)} ${s.action}${s.detail ? ` (${s.detail})` : ''}`);
  }
  for (const [action, list] of instruments) {
    const named = list.length <= 6 ? list.join(', ') : `${list.slice(0, 6).join(', ')}, …`;
    lines.push(`  ${'prices'.padEnd(10)} ${list.length} instrument(s) ${action}: ${named}`);
  }
  return lines.join('\n');
}

function render(io: Io, r: UpdateResult, outDir: string): string {
  const head =
    r.status === 'up-to-date'
      ? `up to date: ${r.reason}; nothing written\n`
      : `${r.status === 'rebuilt' ? `rebuilt in full (${r.reason})` : 'updated'}: ${shown(io, outDir)} from parent ${r.parentDatasetId.slice(0, 12)}\n${renderSteps(r.steps)}\n${r.linked.length > 0 ? `  linked from the parent (same bytes): ${r.linked.join(', ')}\n` : ''}`;
  return r.status === 'up-to-date'
    ? head
    : `${head}\n${renderSummary(r.manifest, r.manifestPath, r.seconds)}`;
}

export async function updateCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      out: { type: 'string' },
      offline: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    UPDATE_USAGE,
  );
  if (values.help) {
    io.out(
      `${UPDATE_USAGE}\n\nBrings a universe up to date with its raw inputs: what did not change is taken from OLD (the same bytes),\nwhat is new is read, and the result is byte-identical to 'asof build' over the same inputs, with\nparent_dataset_id naming OLD. Without pipeline.json OLD's pipeline is used, its relative paths against\nthe folder of the pipeline file OLD was built from (as 'asof build' resolved them). NEW is a folder of its own: OLD is an input (its files are read and linked), so it\nis never replaced. --offline serves live sources from the response cache. Nothing new: nothing is written.\n`,
    );
    return 0;
  }
  if (typeof values.manifest !== 'string' || typeof values.out !== 'string' || positionals.length > 1)
    throw new InputError(
      'USAGE',
      `expected --manifest OLD/manifest.json, --out NEW and at most one pipeline file\n  usage: ${UPDATE_USAGE}`,
    );
  const oldManifest = resolve(io.cwd, values.manifest);
  const given = positionals[0] === undefined ? undefined : resolve(io.cwd, positionals[0]);
  const config = given === undefined ? undefined : loadPipeline(given);
  // Without a pipeline, OLD's config is used and its relative paths resolve as the build resolved them:
  // against the folder of the pipeline file OLD records (created_by.pipeline_file), when that folder is there.
  const recorded = given === undefined ? recordedPipelineFile(oldManifest) : undefined;
  const pipelinePath = given ?? recorded;
  const outDir = resolve(io.cwd, values.out);
  const result = await updateUniverse({
    oldManifest,
    config,
    pipelineFile: pipelinePath,
    pathsFrom:
      pipelinePath === undefined
        ? `the working directory ${io.cwd}: ${values.manifest} records no pipeline file`
        : `the folder of ${shown(io, pipelinePath)}`,
    outDir,
    cwd: pipelinePath === undefined ? io.cwd : dirname(pipelinePath),
    cacheRoot: io.cwd,
    inputs: given === undefined ? [] : [given],
    offline: values.offline === true,
    log: (line) => io.err(`asof update: ${line}\n`),
  });
  if (values.json) {
    io.out(
      `${JSON.stringify({
        status: result.status,
        reason: result.reason,
        manifest: result.status === 'up-to-date' ? oldManifest : join(outDir, 'manifest.json'),
        dataset_id: result.manifest.dataset_id,
        parent_dataset_id: result.parentDatasetId,
        seconds: result.seconds,
        steps: result.steps,
        linked: result.linked,
        summary: result.status === 'up-to-date' ? undefined : result.manifest.summary,
        warnings: result.status === 'up-to-date' ? undefined : result.manifest.warnings,
      })}\n`,
    );
  } else io.out(render(io, result, outDir));
  // The folders the user named, never the generation folder behind them (deleted at the next rebuild).
  nextHint(
    io,
    result.status === 'up-to-date'
      ? `asof series --data ${shown(io, dirname(oldManifest))}`
      : `asof diff ${shown(io, oldManifest)} ${join(shown(io, outDir), 'manifest.json')}`,
  );
  return 0;
}
