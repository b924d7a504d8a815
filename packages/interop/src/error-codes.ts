import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/interop's errors and warnings (asof export nixtla / qlib). docs/errors.md is generated
 * from these lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one.
 */
export const INTEROP_ERRORS = {
  INTEROP_NOT_A_UNIVERSE: {
    exit: 2,
    when: "the manifest is not a universe's (a split, an export) or lists no observation or series file",
    fix: "pass the manifest.json of a folder 'asof build' wrote",
  },
  QLIB_NOTHING_TO_EXPORT: {
    exit: 2,
    when: 'the universe has no daily price series (<id>:open/high/low/close/volume/factor, frequency BD or D) and no EDGAR fundamentals',
    fix: 'build a universe with price or EDGAR sources (packages/interop/README.md lists what the Qlib export takes)',
  },
  QLIB_SYMBOL_CLASH: {
    exit: 2,
    when: 'two series map to the same Qlib symbol and field (symbols are lower-cased series id parts)',
    fix: 'drop one of the two sources from the pipeline, or export them from separate universes',
  },
  FLOAT32_ROUNDING: {
    exit: 'warning',
    when: "a value written to Qlib's float32 feature files differs from the universe's value by more than the stated relative tolerance",
    fix: 'read the value from the universe (asof show) or from the Nixtla export, which keep float64',
  },
} as const satisfies ErrorCatalogue;
