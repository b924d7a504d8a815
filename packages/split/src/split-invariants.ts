// The invariants a split asserts on its tables and written files (no input published after its origin, the
// training snapshot strictly before eval_start − embargo, no withdrawal served); a violation is a bug.
import { join } from 'node:path';
import { type Duck, type Params, quoteLiteral } from '@asof/duck';
import { AsofError, type ManifestOutput } from '@asof/schema';
import type { Layout } from './split-models.ts';

export class SplitInvariantError extends AsofError {
  constructor(check: string, count: number) {
    super(
      'SPLIT_INVARIANT_VIOLATED',
      `the split broke an invariant: ${check} (${count} rows); this is a bug in @asof/split`,
      {
        context: { check, count },
      },
    );
  }
}

/** Defence in depth: the properties the SQL guarantees, re-checked on the tables before anything is written
 * (the training snapshot's, after: assertTrainInvariants). */
export async function assertSplitInvariants(duck: Duck, format: Layout): Promise<void> {
  const checks: [string, string, Params?][] = [
    format === 'per_origin'
      ? [
          'inputs available_at <= origin and timestamp <= origin',
          'SELECT count(*) AS n FROM inputs WHERE available_at > origin OR "timestamp" > origin',
        ]
      : [
          'input rows superseded after they appeared',
          'SELECT count(*) AS n FROM input_rows WHERE superseded_at <= available_at',
        ],
    [
      'no withdrawal (value NULL) served as input or target',
      `SELECT (SELECT count(*) FROM ${format === 'per_origin' ? 'inputs' : 'input_rows'} WHERE value IS NULL)
         + (SELECT count(*) FROM ${format === 'per_origin' ? 'targets' : 'target_rows'} WHERE value IS NULL) AS n`,
    ],
    [
      'origins window within lookback_steps',
      'SELECT count(*) AS n FROM origins WHERE n_input_steps > lookback_steps OR lookback_start > origin',
    ],
    format === 'per_origin'
      ? ['targets after their origin', 'SELECT count(*) AS n FROM targets WHERE "timestamp" <= origin']
      : [
          'target rows after the first origin',
          `SELECT count(*) AS n FROM target_rows t JOIN (SELECT series_id, min(origin_index) AS i FROM origins GROUP BY 1) o
           USING (series_id) WHERE t.step_index <= o.i`,
        ],
  ];
  await assertNone(duck, checks);
}

/**
 * The training snapshot's invariants, checked on the files written (train_observations is a view, so this reads
 * what is served instead of computing the snapshot once more): nothing public at or after the cutoff, no
 * withdrawal (value NULL) served as training data. The files are in the temp output, discarded if this throws.
 */
export async function assertTrainInvariants(
  duck: Duck,
  dir: string,
  outputs: readonly Pick<ManifestOutput, 'path' | 'table'>[],
  trainCutoff: string,
): Promise<void> {
  const files = outputs
    .filter((o) => o.table === 'train_observations')
    .map((o) => quoteLiteral(join(dir, ...o.path.split('/'))));
  const train = `read_parquet([${files.join(', ')}])`;
  await assertNone(duck, [
    [
      'train available_at < eval_start − embargo',
      `SELECT count(*) AS n FROM ${train} WHERE available_at >= $c::TIMESTAMPTZ`,
      { c: trainCutoff },
    ],
    [
      'no withdrawal (value NULL) served as training data',
      `SELECT count(*) AS n FROM ${train} WHERE value IS NULL`,
    ],
  ]);
}

async function assertNone(duck: Duck, checks: readonly [string, string, Params?][]): Promise<void> {
  for (const [name, sql, params] of checks) {
    const n = Number((await duck.one<{ n: bigint }>(sql, params)).n);
    if (n > 0) throw new SplitInvariantError(name, n);
  }
}
