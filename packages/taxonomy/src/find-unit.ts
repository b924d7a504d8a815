import { InputError, nearestNames } from '@asof/schema';
import { type Unit, type UnitRef, unitKey } from './registry-types.ts';

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

function listed(values: string[], max = 25): string {
  const shown = values.slice(0, max).join(', ');
  return values.length > max ? `${shown}, … (${values.length} in all)` : shown;
}

/**
 * Explains why `ref` is not a unit of `units`: the first level (scope, category, detail category,
 * frequency) that does not match, the nearest valid names at that level, and all valid names there.
 */
export function describeUnknownUnit(
  units: readonly Unit[],
  ref: UnitRef,
): {
  problem: string;
  level: 'scope' | 'category' | 'detail_category' | 'frequency';
  nearest: string[];
  valid: string[];
} {
  const scopes = distinct(units.map((u) => u.scope));
  if (!scopes.includes(ref.scope)) {
    const nearest = nearestNames(ref.scope, scopes);
    return {
      level: 'scope',
      nearest,
      valid: scopes,
      problem: `scope '${ref.scope}' is unknown; did you mean ${quoted(nearest)}? Valid scopes: ${listed(scopes)}`,
    };
  }
  const inScope = units.filter((u) => u.scope === ref.scope);
  const categories = distinct(inScope.map((u) => u.category));
  if (!categories.includes(ref.category)) {
    const nearest = nearestNames(ref.category, categories);
    return {
      level: 'category',
      nearest,
      valid: categories,
      problem:
        `category '${ref.category}' is not in scope '${ref.scope}'; did you mean ${quoted(nearest)}? ` +
        `Valid categories: ${listed(categories)}`,
    };
  }
  const inCategory = inScope.filter((u) => u.category === ref.category);
  const details = distinct(inCategory.map((u) => u.detail_category));
  if (!details.includes(ref.detail_category)) {
    const nearest = nearestNames(ref.detail_category, details);
    const elsewhere = units.filter((u) => u.detail_category === ref.detail_category);
    const hint =
      elsewhere.length > 0
        ? ` ('${ref.detail_category}' exists under ${distinct(elsewhere.map((u) => `${u.scope} / ${u.category}`)).join(', ')})`
        : '';
    return {
      level: 'detail_category',
      nearest,
      valid: details,
      problem:
        `detail category '${ref.detail_category}' is not in ${ref.scope} / ${ref.category}${hint}; ` +
        `did you mean ${quoted(nearest)}? Valid detail categories there: ${listed(details)}`,
    };
  }
  const frequencies = inCategory
    .filter((u) => u.detail_category === ref.detail_category)
    .map((u) => u.frequency);
  return {
    level: 'frequency',
    nearest: frequencies,
    valid: frequencies,
    problem:
      `detail category '${ref.detail_category}' has no unit at frequency '${ref.frequency}'; ` +
      `its units are at ${frequencies.join(', ')}`,
  };
}

function quoted(names: string[]): string {
  return names.map((n) => `'${n}'`).join(' or ');
}

/** A series classified into a unit the registry does not have (code UNKNOWN_UNIT). */
export class UnknownUnitError extends InputError {
  readonly nearest: string[];
  readonly valid: string[];
  constructor(ref: UnitRef, units: readonly Unit[], what = 'series') {
    const d = describeUnknownUnit(units, ref);
    super(
      'UNKNOWN_UNIT',
      `${what}: unit ${unitKey(ref)} is not in the registry: ${d.problem}. ` +
        'Fix the classification, or add the unit to packages/taxonomy/registry/units.tsv (see its README).',
      { context: { ...ref, level: d.level, nearest: d.nearest, valid: d.valid } },
    );
    this.nearest = d.nearest;
    this.valid = d.valid;
  }
}

const indexCache = new WeakMap<readonly Unit[], Map<string, Unit>>();
function unitIndex(units: readonly Unit[]): Map<string, Unit> {
  let index = indexCache.get(units);
  // Rebuilt if the array was edited after the first lookup (e.g. a caller appending a unit).
  if (index === undefined || index.size !== units.length) {
    index = new Map(units.map((u) => [u.key, u]));
    indexCache.set(units, index);
  }
  return index;
}

/** The unit `ref` names, or undefined. */
export function lookupUnit(registry: { units: readonly Unit[] }, ref: UnitRef): Unit | undefined {
  return unitIndex(registry.units).get(unitKey(ref));
}

/**
 * The unit `ref` names; throws UnknownUnitError naming the nearest valid names otherwise. `what`
 * describes the caller's object in the message (e.g. "series fred:DGS10").
 */
export function findUnit(registry: { units: readonly Unit[] }, ref: UnitRef, what?: string): Unit {
  const unit = lookupUnit(registry, ref);
  if (unit === undefined) throw new UnknownUnitError(ref, registry.units, what);
  return unit;
}

/**
 * Build-time gate: every series must land in a registry unit. Returns each series' unit; on the first
 * unknown unit throws UnknownUnitError naming how many series use it (a few ids as examples).
 */
export function checkSeriesUnits<S extends UnitRef & { series_id: string }>(
  registry: { units: readonly Unit[] },
  series: Iterable<S>,
): Map<string, Unit> {
  const out = new Map<string, Unit>();
  const unknown = new Map<string, { ref: UnitRef; ids: string[] }>();
  for (const s of series) {
    const unit = lookupUnit(registry, s);
    if (unit !== undefined) {
      out.set(s.series_id, unit);
      continue;
    }
    const key = unitKey(s);
    const group = unknown.get(key) ?? { ref: s, ids: [] };
    group.ids.push(s.series_id);
    unknown.set(key, group);
  }
  const first = unknown.values().next();
  if (!first.done) {
    const { ref, ids } = first.value;
    const examples = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ', …' : '');
    const more = unknown.size > 1 ? ` (${unknown.size - 1} other unknown unit(s) too)` : '';
    throw new UnknownUnitError(ref, registry.units, `${ids.length} series (${examples})${more}`);
  }
  return out;
}
