import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from '@asof/schema';

/**
 * Output folders must lie inside the working directory: a build replaces its output folder wholesale,
 * so a typo such as `--out /` or `--out ..` must never reach rm/rename.
 */
export function resolveOutDir(out: string, cwd: string = process.cwd()): string {
  const abs = resolve(cwd, out);
  const rel = relative(cwd, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new InputError(
      'OUT_OUTSIDE_WORKDIR',
      `--out ${out}: resolves to ${abs}, which is not inside the working directory ${cwd}; choose a folder below it, e.g. out/mybuild`,
      { context: { out, resolved: abs, cwd } },
    );
  }
  return abs;
}
