import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Duck, quoteLiteral } from '@asof/duck';
import { writeUniverseManifest } from '@asof/test-kit';

/**
 * The leakage canary's poison (SPEC §8; as in canary.test.ts): a copy of universe `src` at `dest` where
 * every row published after `t` gets a wildly different value and a later available_at (same timestamps),
 * and every value public by `t` gets a wild revision published just after `t`. Whatever is known at `t`
 * is unchanged; everything after is garbage.
 */
export async function poisonUniverse(src: string, dest: string, t: string): Promise<void> {
  const duck = await Duck.open({ threads: 2 });
  try {
    for (const part of readdirSync(join(src, 'observations')).sort()) {
      mkdirSync(join(dest, 'observations', part), { recursive: true });
      const file = quoteLiteral(join(src, 'observations', part, 'data.parquet'));
      await duck.writeParquet(
        `WITH o AS (SELECT * FROM read_parquet(${file}, hive_partitioning = false)),
         after_t AS (
           SELECT series_id, "timestamp", period_start, available_at + INTERVAL 3 DAY AS available_at,
                  -977.0 * value + 123456.5 AS value, available_at_basis, 'poison' AS source_ref
           FROM o WHERE available_at > $t::TIMESTAMPTZ
         ),
         revisions AS (
           SELECT series_id, "timestamp", any_value(period_start) AS period_start,
                  $t::TIMESTAMPTZ + INTERVAL 1 DAY AS available_at, 1e9 + count(*) AS value,
                  any_value(available_at_basis) AS available_at_basis, 'poison' AS source_ref
           FROM o WHERE available_at <= $t::TIMESTAMPTZ GROUP BY series_id, "timestamp"
         )
         SELECT * FROM o WHERE available_at <= $t::TIMESTAMPTZ
         UNION ALL SELECT * FROM after_t
         UNION ALL SELECT * FROM revisions
         ORDER BY series_id, "timestamp", available_at`,
        join(dest, 'observations', part, 'data.parquet'),
        { t },
      );
    }
    await duck.writeParquet(
      `SELECT s.* REPLACE (coalesce(o.n_revisions, 0) AS n_revisions)
       FROM read_parquet(${quoteLiteral(join(src, 'series.parquet'))}) s
       LEFT JOIN (SELECT series_id, count(*) - count(DISTINCT "timestamp") AS n_revisions
                  FROM read_parquet(${quoteLiteral(join(dest, 'observations', '*', '*.parquet'))}) GROUP BY series_id) o
       USING (series_id) ORDER BY series_id`,
      join(dest, 'series.parquet'),
    );
  } finally {
    duck.close();
  }
  copyFileSync(join(src, 'tasks.parquet'), join(dest, 'tasks.parquet'));
  await writeUniverseManifest(dest, 'canary-poisoned', { eval_start: '2020-01-01' });
}
