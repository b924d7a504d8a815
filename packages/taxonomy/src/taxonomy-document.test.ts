import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { expandMetricColumns } from './expand-metric-columns.ts';
import { defaultRegistry } from './load-registry.ts';
import { taxonomyDocument } from './taxonomy-document.ts';

const Horizon = z.enum(['1w', '1m', '1q', '1h', '1y']).nullable();
const Doc = z
  .object({
    scopes: z.array(z.object({ name: z.string(), finverse: z.boolean() }).strict()),
    categories: z.array(z.object({ scope: z.string(), name: z.string(), finverse: z.boolean() }).strict()),
    detail_categories: z.array(
      z.object({ scope: z.string(), category: z.string(), name: z.string(), finverse: z.boolean() }).strict(),
    ),
    units: z.array(
      z
        .object({
          scope: z.string(),
          category: z.string(),
          detail_category: z.string(),
          frequency: z.enum(['D', 'BD', 'W', 'M', 'Q', 'A']),
          eval_target: z.boolean(),
          finverse: z.boolean(),
        })
        .strict(),
    ),
    metric_columns: z.array(
      z
        .object({
          aspect: z.string(),
          metric: z.enum([
            'HR',
            'DHR',
            'D2HR',
            'MASE_rel',
            'MASE_abs',
            'MASE_ori',
            'IC',
            'return',
            'vol',
            'Sharpe',
            'MDD',
          ]),
          p: Horizon,
          h: Horizon,
          finverse: z.boolean(),
        })
        .strict(),
    ),
  })
  .strict();

describe('taxonomyDocument', () => {
  const doc = taxonomyDocument(defaultRegistry());

  it('has the shape `asof taxonomy --json` prints and survives JSON', () => {
    expect(() => Doc.parse(JSON.parse(JSON.stringify(doc)))).not.toThrow();
  });

  it('lists each name once per level, consistent with the units', () => {
    const keys = doc.detail_categories.map((d) => `${d.scope}|${d.category}|${d.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(doc.units.map((u) => `${u.scope}|${u.category}|${u.detail_category}`))).toEqual(
      new Set(keys),
    );
    expect(new Set(doc.categories.map((c) => c.scope))).toEqual(new Set(doc.scopes.map((s) => s.name)));
  });

  it('marks the FinVerse metric columns', () => {
    const key = (c: { aspect: string; metric: string; p: string | null; h: string | null }) =>
      `${c.aspect}|${c.metric}|${c.p}|${c.h}`;
    expect(doc.metric_columns.filter((c) => c.finverse).map(key)).toEqual(
      expandMetricColumns(defaultRegistry(), { finverseOnly: true }).map(key),
    );
    const ori = doc.metric_columns.filter((c) => c.metric === 'MASE_ori');
    expect(ori).toEqual([{ aspect: 'Point-wise', metric: 'MASE_ori', p: null, h: null, finverse: true }]);
  });
});
