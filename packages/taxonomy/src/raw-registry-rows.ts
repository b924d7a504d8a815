import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_REGISTRY_DIR } from './load-registry.ts';

/**
 * The data rows of a registry TSV split on tabs, read without the loader (comments, blank lines and the
 * header dropped). For tests: counts they expect come from the files themselves — the FinVerse rows
 * (finverse = yes) are the `../shared/spec` facts copied into the registry — so adding an extension unit
 * changes no expected number by hand.
 */
export function rawRegistryRows(file: string, dir: string = DEFAULT_REGISTRY_DIR): string[][] {
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .slice(1)
    .map((l) => l.split('\t'));
}

/** units.tsv rows as objects (`finverse` and `eval_target` as booleans). */
export function rawUnitRows(dir: string = DEFAULT_REGISTRY_DIR): {
  scope: string;
  category: string;
  detail_category: string;
  frequency: string;
  eval_target: boolean;
  finverse: boolean;
}[] {
  return rawRegistryRows('units.tsv', dir).map(([scope, category, detail_category, frequency, e, f]) => ({
    scope,
    category,
    detail_category,
    frequency,
    eval_target: e === 'yes',
    finverse: f === 'yes',
  }));
}
