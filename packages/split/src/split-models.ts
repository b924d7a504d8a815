// The split's DuckDB models (packages/split/sql/<name>.sql): their order, the layouts and target vintages
// they serve, and how each is created.
import { type Duck, loadSql, type Params } from '@asof/duck';
import { createSplitCodes } from './split-outputs.ts';

export const TARGET_VINTAGES = ['first_release', 'latest'] as const;
export type TargetVintage = (typeof TARGET_VINTAGES)[number];

export const LAYOUTS = ['per_origin', 'compact'] as const;
/**
 * `per_origin`: inputs.parquet has one row per (series, origin, timestamp) and targets.parquet one per
 * (series, origin, step) — spelled out. `compact` (for --origins all on large universes, where per-origin
 * files are origins × (lookback + H) rows): inputs.parquet holds each observation vintage any origin can
 * see once, with `superseded_at` (input at o = rows with lookback_start <= timestamp <= o and
 * available_at <= o < superseded_at, see input_rows.sql), and targets.parquet each grid step's target once
 * by step_index (target of o at step k = step_index origin_index + k, see target_rows.sql).
 */
export type Layout = (typeof LAYOUTS)[number];

/** The split models in dependency order (packages/split/sql/<name>.sql), with the per-origin inputs. */
export const SPLIT_MODELS = [
  'series_keys',
  // Before train_series, which places the training snapshot's ends on the grid.
  'series_grid',
  'train_observations',
  'train_series',
  'withdrawn_vintages',
  'eval_observations',
  'target_values',
  'origin_candidates',
  'input_windows',
  'inputs',
  'origins',
  'withdrawals',
  'targets',
] as const;

/** The models of a split whose inputs are written in `format`. */
export function splitModels(layout: Layout): string[] {
  if (layout === 'per_origin') return [...SPLIT_MODELS];
  return SPLIT_MODELS.map((m) => (m === 'inputs' ? 'input_rows' : m === 'targets' ? 'target_rows' : m));
}

/**
 * Models created as views, computed where they are read: train_observations (the training snapshot, most of
 * a split's rows) is read by train_series once and streamed into its Parquet parts once, so materialising
 * it first cost a full write and scan of the largest table (SPEC §12).
 */
const VIEW_MODELS: ReadonlySet<string> = new Set(['train_observations']);

/**
 * Creates one split model, as a table or (VIEW_MODELS) a view, under its own name. series_keys is followed
 * by the ENUM types of SPLIT_CODES, which the later models and the writes cast to.
 */
export async function createSplitModel(duck: Duck, name: string, params: Params): Promise<void> {
  const sql = splitModelSql(name);
  await (VIEW_MODELS.has(name) ? duck.createView(name, sql, params) : duck.createTable(name, sql, params));
  if (name === 'series_keys') await createSplitCodes(duck);
}

const SQL_DIR = new URL('../sql/', import.meta.url);

/** The text of `sql/<name>.sql`. */
export function splitModelSql(name: string): string {
  return loadSql(SQL_DIR, name);
}
