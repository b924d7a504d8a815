import type { Frequency } from '@asof/schema';
import { InputError } from '@asof/schema';
import { findUnit } from './find-unit.ts';
import { defaultRegistry } from './load-registry.ts';
import {
  PRICE_FIELDS,
  PRICE_KINDS,
  type PriceField,
  type PriceKind,
  type Registry,
} from './registry-types.ts';

export interface PriceClassification {
  scope: string;
  category: string;
  detail_category: string;
  frequency: Frequency;
}

/**
 * The registry unit of one OHLCV field of a price instrument (price-kinds.tsv). Frequency defaults to
 * the kind's bar frequency (BD; D for crypto). `crypto` is FinVerse's evaluated top-100 pairs,
 * `crypto_other` the rest. Throws UnknownUnitError when the registry has no unit at that frequency.
 */
export function classifyPriceSeries(
  kind: PriceKind,
  field: PriceField,
  frequency?: Frequency,
  registry: Registry = defaultRegistry(),
): PriceClassification {
  const rule = registry.priceKinds.find((p) => p.kind === kind && p.field === field);
  if (rule === undefined) {
    throw new InputError(
      'UNKNOWN_PRICE_KIND',
      `no price-kinds.tsv rule for kind ${JSON.stringify(kind)} and field ${JSON.stringify(field)}; ` +
        `kinds: ${PRICE_KINDS.join(', ')}; fields: ${PRICE_FIELDS.join(', ')}`,
      { context: { kind, field } },
    );
  }
  const ref = {
    scope: rule.scope,
    category: rule.category,
    detail_category: rule.detail_category,
    frequency: frequency ?? rule.frequency,
  };
  findUnit(registry, ref, `${kind} ${field} price series`);
  return ref;
}
