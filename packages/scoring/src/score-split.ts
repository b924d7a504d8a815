import { assertSplitManifest, hashFile, openVerifiedManifest, type VerifiedManifest } from '@asof/manifest';
import { InputError, type Manifest } from '@asof/schema';
import { alignForecasts, type ModelForecasts } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { readForecasts } from './read-forecasts.ts';
import { readSplitTables, readTasksTable, type SplitLoader } from './read-split-tables.ts';
import type { ScoringResults } from './results-schema.ts';
import { type ScoreOptions, scorePanel } from './score-panel.ts';
import type { TaskRow } from './score-types.ts';

export interface ScoreSplitOptions extends ScoreOptions {
  /** Reads the verified split into tasks/origins/targets (default: readSplitTables). */
  loadSplit?: SplitLoader;
  /**
   * The parent universe's manifest, for its `tasks` table when the split carries none. It is verified
   * too, and its dataset_id must be the split's parent_dataset_id.
   */
  universeManifest?: string;
  /** Task rows given directly (overrides the split's and the universe's). */
  tasks?: readonly TaskRow[];
  /** Accept a manifest whose kind is not 'split' (hand-made panels). Default false. */
  anyKind?: boolean;
}

/**
 * The split's origins policy: `config.origins_policy`, or `config.origins` (a string, or an object with
 * `policy`); null when the manifest states none.
 */
export function originsPolicyOf(manifest: Manifest): string | null {
  const c = manifest.config as Record<string, unknown>;
  if (typeof c.origins_policy === 'string') return c.origins_policy;
  const o = c.origins;
  if (typeof o === 'string') return o;
  if (o && typeof o === 'object' && typeof (o as Record<string, unknown>).policy === 'string')
    return (o as Record<string, string>).policy;
  return null;
}

/**
 * Scores forecast files against a split. The manifest is verified first (every listed file re-hashed):
 * a changed byte anywhere throws ManifestVerifyError before any split or forecast file is read.
 */
export async function scoreSplit(
  manifestPath: string,
  forecastPaths: readonly string[],
  options: ScoreSplitOptions = {},
): Promise<ScoringResults> {
  const split = await openVerifiedManifest(manifestPath);
  let universe: VerifiedManifest | null = null;
  try {
    const manifest = split.manifest;
    const log = options.log ?? (() => {});
    log(
      `verified ${manifest.outputs.length} file(s) of ${manifestPath} (dataset_id ${manifest.dataset_id.slice(0, 12)})`,
    );
    if (!options.anyKind) assertSplitManifest(manifest, manifestPath, 'SCORE_NOT_A_SPLIT', 'score');
    if (forecastPaths.length === 0) {
      throw new InputError(
        'SCORE_NO_FORECASTS',
        'no forecasts file given; pass at least one --forecasts FILE',
      );
    }
    if (options.universeManifest && !options.tasks) {
      universe = await openVerifiedManifest(options.universeManifest);
      if (universe.manifest.dataset_id !== manifest.parent_dataset_id) {
        throw new InputError(
          'SCORE_WRONG_UNIVERSE',
          `${options.universeManifest}: dataset_id ${universe.manifest.dataset_id} is not the split's parent ${manifest.parent_dataset_id}; pass the universe the split was made from`,
          {
            context: {
              file: options.universeManifest,
              value: universe.manifest.dataset_id,
              expected: manifest.parent_dataset_id,
            },
          },
        );
      }
    }
    const u = universe;
    const results = await split.guard(() =>
      scoreVerified(split, u, forecastPaths, options, manifestPath, log),
    );
    await split.recheck();
    await universe?.recheck();
    return results;
  } finally {
    split.close();
    universe?.close();
  }
}

async function scoreVerified(
  split: VerifiedManifest,
  universe: VerifiedManifest | null,
  forecastPaths: readonly string[],
  options: ScoreSplitOptions,
  manifestPath: string,
  log: (line: string) => void,
): Promise<ScoringResults> {
  const manifest = split.manifest;
  const data = await (options.loadSplit ?? readSplitTables)(manifest, (t) => split.readPaths(t));
  const splitTasks = data.tasks;
  const tasks =
    options.tasks ??
    splitTasks ??
    (universe ? await readTasksTable(universe.manifest, (t) => universe.readPaths(t)) : null);
  if (tasks === null) {
    throw new InputError(
      'SCORE_NO_TASKS',
      `${manifestPath}: the split has no tasks table; pass the parent universe manifest (--universe) so its tasks can be read`,
      { context: { file: manifestPath } },
    );
  }
  const panel = buildEvaluationPanel(data.origins, data.targets, manifestPath);
  log(
    `read the split: ${panel.seriesIds.length} series, ${panel.horizon.length} origins, ${panel.actual.length} target steps`,
  );
  const models: ModelForecasts[] = [];
  const forecasts: ScoringResults['forecasts'] = [];
  for (const path of forecastPaths) {
    const { sha256, bytes } = await hashFile(path);
    const aligned = alignForecasts(panel, await readForecasts(path));
    models.push(...aligned);
    forecasts.push({ path, sha256, bytes, models: aligned.map((m) => m.model) });
    log(`read ${path}: model(s) ${aligned.map((m) => m.model).join(', ')}`);
  }
  return scorePanel({
    tasks,
    panel,
    models,
    options: { ...options, originsPolicy: options.originsPolicy ?? originsPolicyOf(manifest) },
    datasetId: manifest.dataset_id,
    parentDatasetId: manifest.parent_dataset_id,
    datasetWarnings: manifest.warnings,
    forecasts,
    where: manifestPath,
  });
}
