import type { Duck } from '@asof/duck';
import type { BuildWarning } from '@asof/schema';

/**
 * The survivorship warnings of a built universe's membership (docs/decisions/0021):
 * - `SURVIVORSHIP` when series of entities have no point-in-time membership (universe_kind 'static': no
 *   membership file names their entity, so the entity list is whatever was chosen, after the fact) and no
 *   source has already warned of survivorship (a source's own warning, like vega-datasets', says more);
 * - `MEMBERSHIP_WITHOUT_SERIES` when a membership file names entities the universe holds no series of:
 *   the cross-sections at their member instants lack them (delisted companies whose histories were not
 *   supplied), which is survivorship bias again.
 */
export async function membershipWarnings(
  duck: Duck,
  existing: readonly BuildWarning[],
): Promise<BuildWarning[]> {
  const out: BuildWarning[] = [];
  const s = await duck.one<{ series: bigint; entities: bigint }>(
    `SELECT count(*) AS series, count(DISTINCT entity_id) AS entities FROM series
     WHERE entity_id IS NOT NULL AND universe_kind = 'static'`,
  );
  if (Number(s.series) > 0 && !existing.some((w) => w.code === 'SURVIVORSHIP')) {
    out.push({
      code: 'SURVIVORSHIP',
      message: `${Number(s.series)} series of ${Number(s.entities)} entities have no point-in-time membership (no membership file names them): the universe holds the entities someone chose, after the fact, so cross-sectional results on them carry survivorship bias; give an index membership file (prices.membership)`,
      count: Number(s.series),
    });
  }
  const missing = await duck.all<{ entity_id: string }>(
    `SELECT DISTINCT entity_id FROM membership
     WHERE source = 'membership_csv' AND entity_id NOT IN (SELECT entity_id FROM series WHERE entity_id IS NOT NULL)
     ORDER BY entity_id`,
  );
  if (missing.length > 0) {
    const named = missing.slice(0, 5).map((m) => m.entity_id);
    out.push({
      code: 'MEMBERSHIP_WITHOUT_SERIES',
      message: `${missing.length} entities the membership files name have no series in the universe (${missing.length > 5 ? 'first 5: ' : ''}${named.join(', ')}): the cross-sections at their member instants lack them, a survivorship bias; add their histories, delisted companies included`,
      count: missing.length,
    });
  }
  return out;
}
