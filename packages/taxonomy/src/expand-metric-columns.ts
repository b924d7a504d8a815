import { findUnit } from './find-unit.ts';
import { HORIZONS, type Horizon, horizonSteps } from './horizon-steps.ts';
import {
  ASPECTS,
  type Aspect,
  type Assignment,
  METRICS,
  type Metric,
  type Registry,
  type Unit,
  type UnitRef,
} from './registry-types.ts';

/** One metric column: FinVerse scores every (aspect, metric, p, h) it assigns. p/h are null for MASE_ori. */
export interface MetricColumn {
  aspect: Aspect;
  metric: Metric;
  p: Horizon | null;
  h: Horizon | null;
}

/** A metric column of one unit, with p and h converted to steps of the unit's frequency. */
export interface UnitTask extends MetricColumn {
  p_steps: number | null;
  h_steps: number | null;
}

/** A unit task with its unit, for loading the whole expansion into a table. */
export interface UnitTaskRow extends UnitTask, UnitRef {
  unit_key: string;
  finverse: boolean;
}

function rank<T>(list: readonly T[], value: T | null): number {
  return value === null ? -1 : list.indexOf(value);
}

/** Canonical column order: aspect, metric family, p, h (the order FinVerse lists them). */
export function compareMetricColumns(a: MetricColumn, b: MetricColumn): number {
  return (
    rank(ASPECTS, a.aspect) - rank(ASPECTS, b.aspect) ||
    rank(METRICS, a.metric) - rank(METRICS, b.metric) ||
    rank(HORIZONS, a.p) - rank(HORIZONS, b.p) ||
    rank(HORIZONS, a.h) - rank(HORIZONS, b.h)
  );
}

const assignmentsByUnit = new WeakMap<readonly Assignment[], Map<string, Assignment[]>>();
function assignmentsOf(registry: Registry, key: string): Assignment[] {
  let index = assignmentsByUnit.get(registry.assignments);
  if (index === undefined) {
    index = new Map();
    for (const a of registry.assignments) index.set(a.unit_key, [...(index.get(a.unit_key) ?? []), a]);
    assignmentsByUnit.set(registry.assignments, index);
  }
  return index.get(key) ?? [];
}

function columnsOf(registry: Registry, assignment: Assignment): MetricColumn[] {
  const variant = registry.variants.find((v) => v.id === assignment.variant);
  if (variant === undefined) throw new Error(`variant ${assignment.variant} vanished from the registry`);
  const out: MetricColumn[] = [];
  for (const metric of assignment.metrics) {
    if (variant.combinations.length === 0) out.push({ aspect: assignment.aspect, metric, p: null, h: null });
    for (const { p, h } of variant.combinations) out.push({ aspect: assignment.aspect, metric, p, h });
  }
  return out;
}

/**
 * The distinct metric columns that the registry's assignments expand to, in canonical order.
 * `finverseOnly` keeps FinVerse units' assignments only (78 columns for the shipped registry).
 */
export function expandMetricColumns(
  registry: Registry,
  options: { finverseOnly?: boolean } = {},
): MetricColumn[] {
  const seen = new Map<string, MetricColumn>();
  for (const a of registry.assignments) {
    if (options.finverseOnly && !a.finverse) continue;
    for (const c of columnsOf(registry, a)) seen.set(`${c.aspect}|${c.metric}|${c.p}|${c.h}`, c);
  }
  return [...seen.values()].sort(compareMetricColumns);
}

/**
 * The (aspect, metric, p, h) rows a unit is scored on, with steps at the unit's frequency. Empty for a
 * unit that is not evaluated. `unit` is a unit key ("scope / category / detail / frequency") or a ref;
 * an unknown unit throws UnknownUnitError.
 */
export function unitTasks(registry: Registry, unit: string | UnitRef): UnitTask[] {
  const found: Unit =
    typeof unit === 'string'
      ? (registry.units.find((u) => u.key === unit) ?? findUnit(registry, parseUnitKey(unit)))
      : findUnit(registry, unit);
  const out: UnitTask[] = [];
  for (const a of assignmentsOf(registry, found.key)) {
    for (const c of columnsOf(registry, a)) {
      out.push({
        ...c,
        p_steps: c.p === null ? null : horizonSteps(found.frequency, c.p),
        h_steps: c.h === null ? null : horizonSteps(found.frequency, c.h),
      });
    }
  }
  return out.sort(compareMetricColumns);
}

/** Every evaluated unit's tasks as one flat table (what the build's `tasks` model joins series to). */
export function expandUnitTasks(registry: Registry, options: { finverseOnly?: boolean } = {}): UnitTaskRow[] {
  const out: UnitTaskRow[] = [];
  for (const u of registry.units) {
    if (!u.eval_target || (options.finverseOnly && !u.finverse)) continue;
    for (const t of unitTasks(registry, u.key)) {
      out.push({
        unit_key: u.key,
        scope: u.scope,
        category: u.category,
        detail_category: u.detail_category,
        frequency: u.frequency,
        finverse: u.finverse,
        ...t,
      });
    }
  }
  return out;
}

/** Inverse of unitKey, for messages about malformed keys. */
export function parseUnitKey(key: string): UnitRef {
  const parts = key.split(' / ');
  return {
    scope: parts[0] ?? '',
    category: parts[1] ?? '',
    detail_category: parts[2] ?? '',
    frequency: (parts[3] ?? '') as UnitRef['frequency'],
  };
}
