import type { Frequency } from '@asof/schema';
import { expandMetricColumns, type MetricColumn } from './expand-metric-columns.ts';
import type { Registry } from './registry-types.ts';

/** The `asof taxonomy --json` object (issue 3). Extensions of FinVerse carry finverse: false. */
export interface TaxonomyDocument {
  scopes: { name: string; finverse: boolean }[];
  categories: { scope: string; name: string; finverse: boolean }[];
  detail_categories: { scope: string; category: string; name: string; finverse: boolean }[];
  units: {
    scope: string;
    category: string;
    detail_category: string;
    frequency: Frequency;
    eval_target: boolean;
    finverse: boolean;
  }[];
  metric_columns: (MetricColumn & { finverse: boolean })[];
}

export function taxonomyDocument(registry: Registry): TaxonomyDocument {
  const finverseColumns = new Set(
    expandMetricColumns(registry, { finverseOnly: true }).map((c) => `${c.aspect}|${c.metric}|${c.p}|${c.h}`),
  );
  return {
    scopes: registry.scopes.map((s) => ({ name: s.name, finverse: s.finverse })),
    categories: registry.categories.map((c) => ({ scope: c.scope, name: c.name, finverse: c.finverse })),
    detail_categories: registry.detailCategories.map((d) => ({
      scope: d.scope,
      category: d.category,
      name: d.name,
      finverse: d.finverse,
    })),
    units: registry.units.map((u) => ({
      scope: u.scope,
      category: u.category,
      detail_category: u.detail_category,
      frequency: u.frequency,
      eval_target: u.eval_target,
      finverse: u.finverse,
    })),
    metric_columns: expandMetricColumns(registry).map((c) => ({
      aspect: c.aspect,
      metric: c.metric,
      p: c.p,
      h: c.h,
      finverse: finverseColumns.has(`${c.aspect}|${c.metric}|${c.p}|${c.h}`),
    })),
  };
}
