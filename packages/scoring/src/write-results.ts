import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finalizeDerivedManifest, manifestOutput, writeManifest } from '@asof/manifest';
import type { Manifest } from '@asof/schema';
import { renderLeaderboard } from './render-leaderboard.ts';
import type { ScoringResults } from './results-schema.ts';

/** The manifest kind of a score folder: the same word as its output kind, so `--out` knows it (issue 52). */
export const SCORES_KIND = 'scores';

/** The split a score was made of, as it was verified: the score manifest names it as its parent. */
export interface ScoredSplit {
  manifest: Manifest;
  /** sha256 and size of the split manifest's bytes as read. */
  sha256: string;
  bytes: number;
}

export interface WriteResultsOptions {
  split: ScoredSplit;
  /** The tool version and checkout that scored (default: the split's version, no git state). */
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
}

/** The files of a score folder besides its manifest, as the manifest lists them. */
const DOCUMENTS = [
  // A document has no columns: its fingerprint names its format (and the results' version), its rows are its lines.
  {
    path: 'results.json',
    table: 'results',
    format: (r: ScoringResults) => [`format:json`, `results_version:${r.results_version}`],
  },
  { path: 'leaderboard.md', table: 'leaderboard', format: () => ['format:markdown'] },
] as const;

function lineCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

/**
 * Writes a score folder into dir: `results.json` (pretty JSON), `leaderboard.md`, and `manifest.json`
 * (kind 'scores', docs/decisions/0058) listing both with their sha256 and size, so `asof report --results`
 * and `asof verify` refuse an edited byte. Each file goes via a temp file and rename (a reader never sees
 * half a file). The manifest holds nothing that differs between two scores of the same inputs: a rescore
 * is the same bytes, manifest included.
 */
export async function writeResults(
  dir: string,
  results: ScoringResults,
  options: WriteResultsOptions,
): Promise<{ results: string; leaderboard: string; manifest: string }> {
  mkdirSync(dir, { recursive: true });
  const write = (path: string, text: string) => {
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  };
  const texts = {
    'results.json': `${JSON.stringify(results, null, 2)}\n`,
    'leaderboard.md': renderLeaderboard(results),
  };
  const outputs = [];
  for (const d of DOCUMENTS) {
    const text = texts[d.path];
    write(join(dir, d.path), text);
    outputs.push(
      await manifestOutput(dir, {
        path: d.path,
        table: d.table,
        rows: lineCount(text),
        columns: [...d.format(results)],
        min_timestamp: null,
        max_timestamp: null,
        min_available_at: null,
        max_available_at: null,
      }),
    );
  }
  const { split } = options;
  const manifest = finalizeDerivedManifest(split.manifest, {
    suffix: SCORES_KIND,
    kind: SCORES_KIND,
    // The scorer reads Parquet without DuckDB.
    duckdbVersion: 'none',
    createdBy: options.createdBy,
    config: results.config,
    inputs: [
      { source: 'parent', key: 'manifest.json', sha256: split.sha256, bytes: split.bytes },
      ...results.forecasts.map((f) => ({
        source: 'forecasts',
        key: f.path,
        sha256: f.sha256,
        bytes: f.bytes,
      })),
    ],
    outputs,
    warnings: [...results.dataset_warnings, ...results.warnings],
    summary: {
      models: results.models.length,
      series: results.origins.series,
      origins: results.origins.origins,
      points: results.origins.points,
      verdicts: results.verdicts.status,
    },
  });
  const manifestPath = join(dir, 'manifest.json');
  writeManifest(manifestPath, manifest);
  return {
    results: join(dir, 'results.json'),
    leaderboard: join(dir, 'leaderboard.md'),
    manifest: manifestPath,
  };
}
