import { editDistance, FREQUENCIES } from '@asof/schema';
import { describeUnknownUnit, lookupUnit } from './find-unit.ts';
import { HORIZONS, horizonSteps, isHorizon } from './horizon-steps.ts';
import type { TsvRow } from './read-tsv.ts';
import { RegistryError } from './registry-error.ts';
import {
  AssignmentRow,
  HorizonsRow,
  parseRow,
  type RegistrySource,
  UnitRow,
  VariantRow,
} from './registry-rows.ts';
import {
  type Assignment,
  type HorizonRow,
  METRIC_ASPECT,
  METRICS,
  type Metric,
  NO_VARIANT,
  type PH,
  type Unit,
  type UnitRef,
  unitKey,
  type Variant,
} from './registry-types.ts';

export interface TaxonomyTables {
  units: Unit[];
  variants: Variant[];
  horizons: HorizonRow[];
  assignments: Assignment[];
  warnings: string[];
}

/** The unit a mapping or assignment row names; a RegistryError with the nearest names otherwise. */
export function unitOfRow(units: readonly Unit[], row: TsvRow, ref: UnitRef): Unit {
  const unit = lookupUnit({ units }, ref);
  if (unit !== undefined) return unit;
  const d = describeUnknownUnit(units, ref);
  throw new RegistryError(row.origin, `${unitKey(ref)} is not a unit of units.tsv: ${d.problem}`, {
    nearest: d.nearest,
  });
}

/** units.tsv, variants.tsv, horizons.tsv and assignments.tsv, validated against each other. */
export function parseTaxonomyTables(source: RegistrySource): TaxonomyTables {
  const units = parseUnits(source.rows('units.tsv'));
  const variants = parseVariants(source);
  const horizons = parseHorizons(source, units);
  const warnings: string[] = [];
  const assignments = parseAssignments(source.rows('assignments.tsv'), units, variants, warnings);
  for (const unit of units) {
    if (unit.eval_target && !assignments.some((a) => a.unit_key === unit.key)) {
      throw new RegistryError(
        { file: 'units.tsv', path: source.path('units.tsv'), line: unit.line },
        `unit ${unit.key} has eval_target yes but no rows in assignments.tsv; add its metric assignments ` +
          '(e.g. a Point-wise MASE_ori N/A row) or set eval_target to no',
      );
    }
  }
  return { units, variants, horizons, assignments, warnings };
}

function parseUnits(rows: TsvRow[]): Unit[] {
  const units: Unit[] = [];
  const byKey = new Map<string, Unit>();
  for (const row of rows) {
    const r = parseRow(UnitRow, row);
    const key = unitKey(r);
    const prior = byKey.get(key);
    if (prior !== undefined) {
      throw new RegistryError(
        row.origin,
        `duplicate unit ${key} (first defined on line ${prior.line}); remove one row`,
        {
          value: key,
        },
      );
    }
    checkNearDuplicateName(
      row,
      'scope',
      r.scope,
      units.map((u) => u.scope),
    );
    checkNearDuplicateName(
      row,
      'category',
      r.category,
      units.filter((u) => u.scope === r.scope).map((u) => u.category),
    );
    const unit: Unit = {
      scope: r.scope,
      category: r.category,
      detail_category: r.detail_category,
      frequency: r.frequency,
      key,
      eval_target: r.eval_target,
      finverse: r.finverse,
      line: row.origin.line,
    };
    units.push(unit);
    byKey.set(key, unit);
  }
  return units;
}

/**
 * A new scope or category that is one or two edits away from an existing one is almost always a typo,
 * and would silently open a parallel branch of the taxonomy that no assignment or mapping refers to.
 */
function checkNearDuplicateName(row: TsvRow, column: string, name: string, existing: string[]): void {
  if (existing.includes(name)) return;
  const near = [...new Set(existing)].find((e) => editDistance(e, name) <= 2);
  if (near !== undefined) {
    throw new RegistryError(
      row.origin,
      `column '${column}': '${name}' is not an existing ${column} but is close to '${near}'; use '${near}', ` +
        `or pick a clearly different name for a new ${column}`,
      { column, value: name },
    );
  }
}

function parseVariants(source: RegistrySource): Variant[] {
  const variants: Variant[] = [];
  for (const row of source.rows('variants.tsv')) {
    const r = parseRow(VariantRow, row);
    const prior = variants.find((v) => v.id === r.variant);
    if (prior !== undefined) {
      throw new RegistryError(
        row.origin,
        `duplicate variant '${r.variant}' (first defined on line ${prior.line})`,
      );
    }
    variants.push({
      id: r.variant,
      combinations: parseCombinations(row, r.combinations),
      line: row.origin.line,
    });
  }
  if (!variants.some((v) => v.id === NO_VARIANT)) {
    throw new RegistryError(
      { file: 'variants.tsv', path: source.path('variants.tsv'), line: 1 },
      `lacks the '${NO_VARIANT}' variant (no combinations) that MASE_ori uses; add a row "${NO_VARIANT}\t${NO_VARIANT}"`,
    );
  }
  return variants;
}

function parseCombinations(row: TsvRow, text: string): PH[] {
  if (text === NO_VARIANT) return [];
  const items = text.split(/\)\s*,\s*\(/).map((s) => s.replace(/^\(|\)$/g, ''));
  const out: PH[] = [];
  for (const item of items) {
    const [p, h, extra] = item.split(',').map((s) => s.trim());
    if (extra !== undefined || p === undefined || h === undefined || !isHorizon(p) || !isHorizon(h)) {
      throw new RegistryError(
        row.origin,
        `combination '(${item})' is not a (p,h) pair of horizons ${HORIZONS.join(', ')}; ` +
          `write combinations like (1m,1m),(1q,1m) or ${NO_VARIANT}`,
        { value: text },
      );
    }
    if (out.some((c) => c.p === p && c.h === h)) {
      throw new RegistryError(row.origin, `combination (${p},${h}) is listed twice`, { value: text });
    }
    out.push({ p, h });
  }
  return out;
}

function parseHorizons(source: RegistrySource, units: readonly Unit[]): HorizonRow[] {
  const rows = source.rows('horizons.tsv');
  const horizons: HorizonRow[] = [];
  for (const row of rows) {
    const r = parseRow(HorizonsRow, row);
    if (horizons.some((h) => h.frequency === r.frequency)) {
      throw new RegistryError(row.origin, `duplicate frequency '${r.frequency}'`);
    }
    horizons.push(r);
  }
  for (const f of FREQUENCIES) {
    const user = units.find((u) => u.frequency === f);
    if (user !== undefined && !horizons.some((h) => h.frequency === f)) {
      throw new RegistryError(
        { file: 'horizons.tsv', path: source.path('horizons.tsv'), line: rows.at(-1)?.origin.line ?? 1 },
        `has no row for frequency ${f}, which units.tsv line ${user.line} uses; ` +
          `add "${f}\t<prediction_length>\t<minimum_lookback>"`,
      );
    }
  }
  return horizons;
}

function parseAssignments(
  rows: TsvRow[],
  units: readonly Unit[],
  variants: readonly Variant[],
  warnings: string[],
): Assignment[] {
  const assignments: Assignment[] = [];
  const seenMetric = new Map<string, number>();
  for (const row of rows) {
    const r = parseRow(AssignmentRow, row);
    const unit = unitOfRow(units, row, r);
    if (!unit.eval_target) {
      throw new RegistryError(
        row.origin,
        `unit ${unit.key} has eval_target no (units.tsv line ${unit.line}), so it takes no metric assignments; ` +
          'set eval_target to yes there or remove this row',
      );
    }
    const metrics: Metric[] = [];
    for (const m of r.metrics.split(',').map((s) => s.trim())) {
      if (!(METRICS as readonly string[]).includes(m)) {
        throw new RegistryError(
          row.origin,
          `metric '${m}' is not one of the families ${METRICS.join(', ')}`,
          {
            value: m,
          },
        );
      }
      const metric = m as Metric;
      if (METRIC_ASPECT[metric] !== r.aspect) {
        throw new RegistryError(
          row.origin,
          `metric '${metric}' belongs to aspect ${METRIC_ASPECT[metric]}, not ${r.aspect}; ` +
            `put it on a ${METRIC_ASPECT[metric]} row`,
          { value: m },
        );
      }
      const dupKey = `${unit.key}\u0000${r.aspect}\u0000${metric}`;
      const priorLine = seenMetric.get(dupKey);
      if (priorLine !== undefined) {
        throw new RegistryError(
          row.origin,
          `metric '${metric}' is assigned to ${unit.key} twice (also line ${priorLine}); list each metric once per unit`,
          { value: m },
        );
      }
      seenMetric.set(dupKey, row.origin.line);
      metrics.push(metric);
    }
    const variant = variants.find((v) => v.id === r.variant);
    if (variant === undefined) {
      throw new RegistryError(
        row.origin,
        `variant '${r.variant}' is not one of ${variants.map((v) => v.id).join(', ')}`,
        { value: r.variant },
      );
    }
    const isOri = metrics.includes('MASE_ori');
    if (isOri && (metrics.length > 1 || variant.id !== NO_VARIANT)) {
      throw new RegistryError(
        row.origin,
        `MASE_ori has no (p,h) variant: put it alone on a row with variant ${NO_VARIANT}; ` +
          `got metrics ${r.metrics} with variant ${variant.id}`,
      );
    }
    if (!isOri && variant.id === NO_VARIANT) {
      throw new RegistryError(
        row.origin,
        `variant ${NO_VARIANT} is only for MASE_ori; got metrics ${r.metrics}`,
      );
    }
    const undefinedAt = variant.combinations.filter(
      ({ p, h }) => horizonSteps(unit.frequency, p) === null || horizonSteps(unit.frequency, h) === null,
    );
    if (undefinedAt.length > 0) {
      const problem =
        `variant ${variant.id} uses ${undefinedAt.map(({ p, h }) => `(${p},${h})`).join(',')}, which is not defined ` +
        `at frequency ${unit.frequency} (docs/glossary.md: Metric-(p,h) tasks)`;
      // FinVerse itself assigns D5 to its monthly Commodity Spot unit; its facts are kept as published
      // (those tasks get null steps), but an extension must choose a variant that fits its frequency.
      if (!unit.finverse) {
        throw new RegistryError(
          row.origin,
          `${problem}; choose a variant whose horizons exist at ${unit.frequency}`,
        );
      }
      warnings.push(`assignments.tsv line ${row.origin.line}: ${problem}; those tasks have null steps`);
    }
    assignments.push({
      scope: unit.scope,
      category: unit.category,
      detail_category: unit.detail_category,
      frequency: unit.frequency,
      unit_key: unit.key,
      aspect: r.aspect,
      metrics,
      variant: variant.id,
      finverse: unit.finverse,
      line: row.origin.line,
    });
  }
  return assignments;
}
