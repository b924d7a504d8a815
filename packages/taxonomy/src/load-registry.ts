import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '@asof/schema';
import { parseSourceCatalogs } from './parse-source-catalogs.ts';
import { parseTaxonomyTables } from './parse-taxonomy-tables.ts';
import { readTsv, type TsvRow } from './read-tsv.ts';
import { REGISTRY_COLUMNS, type RegistryFileName, type RegistrySource } from './registry-rows.ts';
import type {
  CategoryEntry,
  DetailCategoryEntry,
  Registry,
  RegistryFile,
  ScopeEntry,
  Unit,
} from './registry-types.ts';

/** The registry folder shipped with this package. */
export const DEFAULT_REGISTRY_DIR = fileURLToPath(new URL('../registry/', import.meta.url));

/** Every file a registry folder must hold, sorted by name (the order of `Registry.files`). */
export const REGISTRY_FILES = (Object.keys(REGISTRY_COLUMNS) as RegistryFileName[]).sort();

interface LoadedFile {
  path: string;
  text: string;
  meta: RegistryFile;
}

function readRegistryFile(dir: string, name: RegistryFileName): LoadedFile {
  const path = join(dir, name);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new InputError(
      'REGISTRY_INVALID',
      `registry file ${name} is missing or unreadable at ${path}; a registry folder holds ${REGISTRY_FILES.join(', ')}`,
      { context: { file: name, path }, cause },
    );
  }
  return {
    path,
    text: bytes.toString('utf8'),
    meta: { name, path, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length },
  };
}

/**
 * Reads and validates a registry folder (default: the package's `registry/`). Every problem is an
 * InputError (code REGISTRY_INVALID) naming the file, line and value.
 */
export function loadRegistry(dir: string = DEFAULT_REGISTRY_DIR): Registry {
  const root = resolve(dir);
  const files = new Map(REGISTRY_FILES.map((name) => [name, readRegistryFile(root, name)]));
  const file = (name: RegistryFileName) => files.get(name) as LoadedFile;
  const source: RegistrySource = {
    rows: (name): TsvRow[] => readTsv(file(name).text, name, file(name).path, REGISTRY_COLUMNS[name]),
    path: (name) => file(name).path,
  };
  const tables = parseTaxonomyTables(source);
  return {
    dir: root,
    units: tables.units,
    assignments: tables.assignments,
    variants: tables.variants,
    horizons: tables.horizons,
    ...deriveTaxonomy(tables.units),
    ...parseSourceCatalogs(source, tables.units),
    warnings: tables.warnings,
    files: REGISTRY_FILES.map((name) => file(name).meta),
  };
}

/** Scopes, categories and detail categories in units.tsv order; FinVerse if any of their units is. */
function deriveTaxonomy(units: readonly Unit[]): {
  scopes: ScopeEntry[];
  categories: CategoryEntry[];
  detailCategories: DetailCategoryEntry[];
} {
  const scopes = new Map<string, ScopeEntry>();
  const categories = new Map<string, CategoryEntry>();
  const details = new Map<string, DetailCategoryEntry>();
  for (const u of units) {
    const s = scopes.get(u.scope) ?? { name: u.scope, finverse: false };
    s.finverse ||= u.finverse;
    scopes.set(u.scope, s);
    const ck = `${u.scope}\u0000${u.category}`;
    const c = categories.get(ck) ?? { scope: u.scope, name: u.category, finverse: false };
    c.finverse ||= u.finverse;
    categories.set(ck, c);
    const dk = `${ck}\u0000${u.detail_category}`;
    const d = details.get(dk) ?? {
      scope: u.scope,
      category: u.category,
      name: u.detail_category,
      finverse: false,
    };
    d.finverse ||= u.finverse;
    details.set(dk, d);
  }
  return {
    scopes: [...scopes.values()],
    categories: [...categories.values()],
    detailCategories: [...details.values()],
  };
}

let cached: Registry | undefined;

/** The package's own registry, loaded once per process. */
export function defaultRegistry(): Registry {
  cached ??= loadRegistry();
  return cached;
}
