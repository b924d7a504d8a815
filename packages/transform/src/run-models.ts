import { type Duck, loadSql, type Params, pickUsedParams, runSqlFile } from '@asof/duck';
import { AsofError } from '@asof/schema';

/** The folder of this package's `.sql` models (a URL, for loadSql and loadQuery of @asof/duck). */
export const MODELS_DIR = new URL('../models/', import.meta.url);

/** The text of `models/<name>.sql`. */
export function modelSql(name: string): string {
  return loadSql(MODELS_DIR, name);
}

/** Creates the staging and registry tables the sources and loaders fill. */
export async function createStagingTables(duck: Duck): Promise<void> {
  await runSqlFile(duck, MODELS_DIR, 'stg_tables');
}

/**
 * The models behind the `observations` relation, in dependency order: the series dimension, the rows with
 * integer keys, and the view that joins their strings (models/observations.sql).
 */
export const OBSERVATION_MODELS = ['observation_series', 'observation_rows', 'observations'] as const;

/**
 * Models built as views of the database rather than tables: `observations` joins the strings to
 * observation_rows where it is read (storing them per row cost more than computing the rows, issue 21).
 */
const VIEW_MODELS: ReadonlySet<string> = new Set(['observations']);

/** Builds each model from its `.sql` file, in order: a table, or a view for VIEW_MODELS. */
export async function runModels(duck: Duck, names: readonly string[], params: Params = {}): Promise<void> {
  for (const name of names) {
    const sql = modelSql(name);
    if (VIEW_MODELS.has(name))
      await duck.createView(name, sql, pickUsedParams(sql, params), { shared: true });
    else await duck.createTable(name, sql, pickUsedParams(sql, params));
  }
}

export class InvariantError extends AsofError {
  constructor(violations: Record<string, unknown>[], total: number) {
    const lines = violations.map(
      (v) =>
        `  ${v.check_name}: series ${v.series_id}${v.timestamp ? ` at ${v.timestamp}` : ''}${v.available_at ? ` (available_at ${v.available_at})` : ''}${v.value !== null && v.value !== undefined ? ` value ${v.value}` : ''}: ${v.detail}`,
    );
    super(
      'INVARIANT_VIOLATED',
      `the build broke ${total} invariant(s); first ${violations.length}:\n${lines.join('\n')}\n  hint: fix the source rows named above (available_at rules: docs/decisions/0004-available-at-rules.md)`,
      { context: { total, violations } },
    );
  }
}

/** Fails the build naming the series and rows when invariant_violations is not empty. */
export async function assertInvariants(duck: Duck): Promise<void> {
  const total = Number((await duck.one<{ n: bigint }>('SELECT count(*) AS n FROM invariant_violations')).n);
  if (total === 0) return;
  const rows = await duck.all(
    `SELECT check_name, series_id, iso_instant("timestamp") AS "timestamp",
            iso_instant(available_at) AS available_at, value, detail
     FROM invariant_violations ORDER BY check_name, series_id, "timestamp", available_at LIMIT 10`,
  );
  throw new InvariantError(rows, total);
}

/** The universe models in dependency order. */
export const UNIVERSE_MODELS = [
  ...OBSERVATION_MODELS,
  'series_stats',
  'membership',
  'member_spans',
  'series',
  'short_eval_series',
  'tasks',
  'corporate_actions',
  'invariant_violations',
] as const;
