import type { Duck } from '@asof/duck';
import type { BuildWarning } from '@asof/schema';

/**
 * The build warning for the series short_eval_series.sql lists (evaluated units too short for one full
 * horizon after eval_start, hence not eval targets), counted, naming a few; null when there are none.
 */
export async function shortEvalSeriesWarning(duck: Duck, evalStart: string): Promise<BuildWarning | null> {
  const rows = await duck.all<{ series_id: string; n_from_eval_start: bigint; prediction_length: number }>(
    'SELECT series_id, n_from_eval_start, prediction_length FROM short_eval_series ORDER BY series_id',
  );
  if (rows.length === 0) return null;
  const named = rows
    .slice(0, 5)
    .map((r) => `${r.series_id} (${Number(r.n_from_eval_start) - 1} of ${r.prediction_length} target steps)`)
    .join(', ');
  return {
    code: 'EVAL_TARGET_TOO_SHORT',
    message: `${rows.length} series of evaluated units end before one full horizon after eval_start ${evalStart} (their first origin on or after it lacks some of its prediction_length target steps, registry horizons.tsv), so no origin of theirs could ever be scored: not eval targets. ${rows.length > 5 ? 'First 5: ' : ''}${named}`,
    count: rows.length,
  };
}

/**
 * The build warning for an eval_start after every series' last observation (`eval_start: 9999-12-31`): the
 * universe builds, but no origin can ever be evaluated, which a user would otherwise learn only at split
 * time (audit 15.10); null when some series reaches eval_start.
 */
export async function evalStartAfterDataWarning(duck: Duck, evalStart: string): Promise<BuildWarning | null> {
  const { last } = await duck.one<{ last: string | null }>(
    `SELECT strftime(max(last_timestamp), '%Y-%m-%d') AS last FROM series`,
  );
  if (last === null || last >= evalStart) return null;
  return {
    code: 'EVAL_START_AFTER_DATA',
    message: `eval_start ${evalStart} is after the last observation of every series (${last}): no origin can be evaluated, so a split of this universe has no eval targets; set eval_start (pipeline field) on or before ${last}`,
  };
}
