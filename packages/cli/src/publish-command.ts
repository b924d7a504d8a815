import { resolve } from 'node:path';
import { ASOF_VERSION, gitState } from '@asof/build';
import { publishDataset } from '@asof/publish';
import { InputError } from '@asof/schema';
import { type Io, shown } from './commands.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const PUBLISH_USAGE =
  'asof publish --manifest M --out DIR [--csv] [--private] [--universe U] [--url URL] [--creator NAME] [--date YYYY-MM-DD] [--json]';

const HELP = `${PUBLISH_USAGE}

Writes a universe or a split as a Hugging Face dataset folder (docs/decisions/0066):
  data/<config>/train-00000.parquet  configs observations (every vintage, with available_at), series, tasks,
                                     and for a split snapshot (fev's one row per series: id, timestamp, target,
                                     as known at the training cutoff); --csv writes a .csv beside each
  README.md                          the dataset card: YAML front matter (configs, licence, dataset_info),
                                     what available_at means, the manifest's warnings, the sources' terms
  croissant.json                     Croissant 1.1 metadata, every file with its sha256
  tasks.yaml                         fev tasks, one per frequency (a split only)
  manifest.json                      kind 'publish', every file's sha256, the parent's dataset_id
The version is 1.0.0 for a first publish into DIR, then the previous one bumped: patch for the same data,
minor for added rows, major for changed history. A universe built from raw folders marked test-only (a
TEST-ONLY file, or a PROVENANCE.md saying "only as test fixtures") is refused unless --private; a split of
series that are not synthetic is checked on its universe (--universe U/manifest.json). --url names the
dataset's home (croissant url, fev dataset_path).
`;

/** `asof publish`: a universe or split as a Hugging Face dataset folder with a Croissant card and fev tasks. */
export async function publishCommand(args: string[], io: Io): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      manifest: { type: 'string' },
      out: { type: 'string' },
      csv: { type: 'boolean' },
      private: { type: 'boolean' },
      universe: { type: 'string' },
      url: { type: 'string' },
      creator: { type: 'string' },
      date: { type: 'string' },
      json: { type: 'boolean' },
    },
    PUBLISH_USAGE,
  );
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v.help) {
    io.out(HELP);
    return 0;
  }
  if (parsed.positionals.length > 0) {
    throw new InputError('USAGE', `unexpected argument ${parsed.positionals[0]}\n  usage: ${PUBLISH_USAGE}`);
  }
  if (typeof v.manifest !== 'string' || typeof v.out !== 'string') {
    throw new InputError('USAGE', `--manifest and --out are required\n  usage: ${PUBLISH_USAGE}`);
  }
  if (v.date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(v.date))) {
    throw new InputError('USAGE', `--date ${v.date}: expected YYYY-MM-DD\n  usage: ${PUBLISH_USAGE}`);
  }
  if (v.url !== undefined && !/^https?:\/\/\S+$/.test(String(v.url))) {
    throw new InputError('USAGE', `--url ${v.url}: expected an http(s) URL\n  usage: ${PUBLISH_USAGE}`);
  }
  const git = await gitState(io.cwd);
  const result = await publishDataset({
    manifestPath: resolve(io.cwd, v.manifest),
    outDir: resolve(io.cwd, v.out),
    csv: v.csv === true,
    private: v.private === true,
    universePath: typeof v.universe === 'string' ? resolve(io.cwd, v.universe) : undefined,
    url: v.url as string | undefined,
    creator: v.creator as string | undefined,
    date: v.date as string | undefined,
    createdBy: { asof_version: ASOF_VERSION, git_commit: git.commit, git_dirty: git.dirty },
    log: (line) => io.err(`asof publish: ${line}\n`),
  });
  const m = result.manifest;
  if (v.json) {
    io.out(
      `${JSON.stringify({ manifest: result.manifestPath, dataset_id: m.dataset_id, parent_dataset_id: m.parent_dataset_id, version: result.version, files: m.outputs.map((o) => ({ path: o.path, table: o.table, rows: o.rows })) })}\n`,
    );
  } else {
    io.out(
      `version ${result.version}, ${m.outputs.length} files\ndataset_id ${m.dataset_id} (parent ${m.parent_dataset_id})\nmanifest   ${result.manifestPath}\n`,
    );
  }
  nextHint(
    io,
    `asof verify ${shown(io, result.manifestPath)}   (then upload the folder: huggingface-cli upload)`,
  );
  return 0;
}
