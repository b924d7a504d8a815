import { assertSplitManifest, hashFile, openVerifiedManifest, type VerifiedManifest } from '@asof/manifest';
import { InputError, type Manifest } from '@asof/schema';
import { alignForecasts, type ForecastTable, type ModelForecasts } from './align-forecasts.ts';
import { baselineCacheKey, type ScoreStore } from './baseline-cache.ts';
import { buildEvaluationPanel, type EvaluationPanel } from './build-evaluation-panel.ts';
import { decodeSplitPanel, encodeSplitPanel, splitPanelKey } from './panel-cache.ts';
import { readForecasts } from './read-forecasts.ts';
import { readSplitTables, readTasksTable, type SplitLoader } from './read-split-tables.ts';
import type { ScoringResults } from './results-schema.ts';
import {
  resolveScoringConfig,
  SCORER_VERSION,
  type ScoreOptions,
  scorePanel,
  seriesFrequencyOf,
} from './score-panel.ts';
import type { TaskRow } from './score-types.ts';
import type { ScoredSplit } from './write-results.ts';

export interface ScoreSplitOptions extends ScoreOptions {
  /** Reads the verified split into tasks/origins/targets (default: readSplitTables). */
  loadSplit?: SplitLoader;
  /**
   * Reads a forecasts file into the table readForecasts returns (default: readForecasts). The CLI passes a
   * DuckDB reader, several times faster on a large Parquet file; scoring itself stays free of DuckDB.
   */
  readForecasts?: (path: string) => Promise<ForecastTable>;
  /**
   * The parent universe's manifest, for its `tasks` table when the split carries none. It is verified
   * too, and its dataset_id must be the split's parent_dataset_id.
   */
  universeManifest?: string;
  /** Task rows given directly (overrides the split's and the universe's). */
  tasks?: readonly TaskRow[];
  /** Accept a manifest whose kind is not 'split' (hand-made panels). Default false. */
  anyKind?: boolean;
  /**
   * Keeps the split's panel and the scorer's own baselines between scores of the same split (and which
   * submitted files held only those baselines), so a second score neither reads the split's files nor fits
   * the baselines again (docs/decisions/0054). Default: none.
   */
  scoreStore?: ScoreStore;
  /**
   * Called once with the split as verified (its manifest, and its bytes' sha256 and size): the score
   * folder's manifest names it as its parent (writeResults).
   */
  onSplit?: (split: ScoredSplit) => void;
  /**
   * Runs the long synchronous steps (aligning a forecasts file, scoring the panel: seconds to minutes on a
   * large split). The CLI passes runInterruptibly so Ctrl-C acts at once (audit 1.9). Default: calls it.
   */
  runSync?: <T>(work: () => T) => Promise<T>;
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
    options.onSplit?.({ manifest, sha256: split.sha256, bytes: split.bytes.length });
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

/**
 * The split's panel and its own tasks: from the store when an earlier score of the same split (its verified
 * dataset_id) and the same scorer code kept them, else read from the split's files and kept. Reading a large
 * split's Parquet files takes most of a score once its baselines are kept (docs/decisions/0054). A split read
 * by another loader (options.loadSplit) is never kept.
 */
async function readPanel(
  split: VerifiedManifest,
  options: ScoreSplitOptions,
  manifestPath: string,
  log: (line: string) => void,
): Promise<{ panel: EvaluationPanel; splitTasks: TaskRow[] | null }> {
  const manifest = split.manifest;
  const store = options.loadSplit ? undefined : options.scoreStore;
  const key = store && manifest.dataset_id ? splitPanelKey(manifest.dataset_id) : null;
  const stored = key ? store!.get(key) : null;
  const kept = stored ? decodeSplitPanel(stored) : null;
  const counts = (p: EvaluationPanel) =>
    `${p.seriesIds.length} series, ${p.horizon.length} origins, ${p.actual.length} target steps`;
  if (kept) {
    log(`read the split as kept by an earlier score (${key!.slice(0, 12)}): ${counts(kept.panel)}`);
    return { panel: kept.panel, splitTasks: kept.tasks };
  }
  const data = await (options.loadSplit ?? readSplitTables)(manifest, (t) => split.readPaths(t));
  const panel = buildEvaluationPanel(data.origins, data.targets, manifestPath);
  log(`read the split: ${counts(panel)}`);
  if (key) store!.put(key, encodeSplitPanel(panel, data.tasks));
  return { panel, splitTasks: data.tasks };
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
  const runSync = options.runSync ?? (async <T>(work: () => T): Promise<T> => work());
  const { panel, splitTasks } = await readPanel(split, options, manifestPath, log);
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
  const config = resolveScoringConfig(options);
  const cache =
    options.scoreStore && manifest.dataset_id
      ? {
          store: options.scoreStore,
          key: baselineCacheKey(
            {
              datasetId: manifest.dataset_id,
              scorerVersion: SCORER_VERSION,
              baselines: config.baselines,
              refitEvery: config.refit_every,
              seriesFrequency: seriesFrequencyOf(panel, tasks),
            },
            panel,
          ),
        }
      : undefined;
  const models: ModelForecasts[] = [];
  const forecasts: ScoringResults['forecasts'] = [];
  const read: { sha256: string; models: string[] }[] = [];
  let acceptedBaselines = 0;
  for (const path of forecastPaths) {
    const { sha256, bytes } = await hashFile(path);
    // A file an earlier score of this split found to hold only the scorer's own baselines (each equal to
    // them on every point) is not read again: it would be checked and dropped the same way.
    const accepted = cache?.store.acceptedFile?.(cache.key, sha256);
    if (accepted) {
      acceptedBaselines += accepted.length;
      forecasts.push({ path, sha256, bytes, models: accepted });
      log(`${path}: the scorer's own baselines (${accepted.join(', ')}), found equal before: not read again`);
      continue;
    }
    const rows = await (options.readForecasts ?? ((p: string) => readForecasts(p, { runSync })))(path);
    const aligned = await runSync(() => alignForecasts(panel, rows));
    models.push(...aligned);
    forecasts.push({ path, sha256, bytes, models: aligned.map((m) => m.model) });
    read.push({ sha256, models: aligned.map((m) => m.model) });
    log(`read ${path}: model(s) ${aligned.map((m) => m.model).join(', ')}`);
  }
  const results = await runSync(() =>
    scorePanel({
      tasks,
      panel,
      models,
      options: { ...options, originsPolicy: options.originsPolicy ?? originsPolicyOf(manifest) },
      datasetId: manifest.dataset_id,
      parentDatasetId: manifest.parent_dataset_id,
      datasetWarnings: manifest.warnings,
      forecasts,
      baselineCache: cache,
      acceptedBaselines,
      where: manifestPath,
    }),
  );
  // Scored without error, so every submitted baseline equalled the scorer's own: a file holding nothing
  // else is remembered under the key.
  const own = new Set<string>(config.baselines);
  for (const f of read) {
    if (cache && f.models.length && f.models.every((m) => own.has(m)))
      cache.store.acceptFile?.(cache.key, f.sha256, f.models);
  }
  return results;
}
