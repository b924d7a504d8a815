import { BOOLEAN, type Duck, INTEGER, VARCHAR } from '@asof/duck';
import { expandUnitTasks, type Registry, UnknownUnitError } from '@asof/taxonomy';

/** Loads the taxonomy registry's units, horizons and expanded unit tasks into the registry_* tables. */
export async function loadRegistryTables(duck: Duck, registry: Registry): Promise<void> {
  const units = await duck.openAppender('registry_units', [
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    BOOLEAN,
    BOOLEAN,
  ]);
  for (const u of registry.units)
    units.push([u.scope, u.category, u.detail_category, u.frequency, u.eval_target, u.finverse]);
  units.close();
  const horizons = await duck.openAppender('registry_horizons', [VARCHAR, INTEGER, INTEGER]);
  for (const h of registry.horizons) horizons.push([h.frequency, h.prediction_length, h.minimum_lookback]);
  horizons.close();
  const tasks = await duck.openAppender('registry_unit_tasks', [
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    VARCHAR,
    INTEGER,
    INTEGER,
  ]);
  for (const t of expandUnitTasks(registry)) {
    tasks.push([
      t.scope,
      t.category,
      t.detail_category,
      t.frequency,
      t.aspect,
      t.metric,
      t.p,
      t.h,
      t.p_steps,
      t.h_steps,
    ]);
  }
  tasks.close();
}

/**
 * The build rejects a series whose unit (scope, category, detail category, frequency) is not in the
 * registry, naming the nearest valid names (SPEC §6).
 */
export async function assertKnownUnits(duck: Duck, registry: Registry): Promise<void> {
  const unknown = await duck.all<{
    series_id: string;
    scope: string;
    category: string;
    detail_category: string;
    frequency: string;
  }>(
    `SELECT min(series_id) AS series_id, scope, category, detail_category, frequency
     FROM stg_series s
     WHERE NOT EXISTS (
       SELECT 1 FROM registry_units u
       WHERE u.scope = s.scope AND u.category = s.category AND u.detail_category = s.detail_category AND u.frequency = s.frequency)
     GROUP BY ALL ORDER BY series_id LIMIT 1`,
  );
  if (unknown.length === 0) return;
  const u = unknown[0];
  throw new UnknownUnitError(
    {
      scope: u.scope,
      category: u.category,
      detail_category: u.detail_category,
      frequency: u.frequency as never,
    },
    registry.units,
    `series ${u.series_id}`,
  );
}
