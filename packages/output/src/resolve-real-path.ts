import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * The real path of `path`, whether or not it exists: the realpath of its deepest existing ancestor with
 * the rest appended. Every output check runs on this, so a symlinked parent cannot move a write elsewhere
 * unseen. The last component is not followed when it is itself a symlink (`followLast: false`): an
 * output path that is asof's own generation link is replaced as a link.
 */
export function resolveRealPath(path: string, options: { followLast?: boolean } = {}): string {
  const abs = resolve(path);
  if (options.followLast === false) {
    const parent = dirname(abs);
    return parent === abs ? abs : join(resolveRealPath(parent), basename(abs));
  }
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    if (parent === abs) return abs;
    return join(resolveRealPath(parent), basename(abs));
  }
}

/** Is `inner` the same path as `outer` or below it (both absolute, normalised)? */
export function isSameOrInside(inner: string, outer: string): boolean {
  if (inner === outer) return true;
  const prefix = outer.endsWith('/') ? outer : `${outer}/`;
  return inner.startsWith(prefix);
}
