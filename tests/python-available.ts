import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Debian's python3 (/usr/bin/python3, which Debian's python3-pandas belongs to) when it is there, else the
 * python3 on PATH; null when neither runs `code`. Tests that need Python skip outside CI with a message
 * naming the Debian package; in CI (CI=true) they run, since .ci/run installs the packages when absent.
 */
export function pythonWith(code: string): string | null {
  for (const python of ['/usr/bin/python3', 'python3']) {
    if (python.startsWith('/') && !existsSync(python)) continue;
    const r = spawnSync(python, ['-c', code], { encoding: 'utf8' });
    if (r.status === 0) return python;
  }
  return null;
}

/** Whether a test needing `pkg` runs: true when present; in CI its absence is a failure, elsewhere a skip. */
export function requirePython(python: string | null, pkg: string, what: string): boolean {
  if (python) return true;
  if (process.env.CI === 'true') {
    throw new Error(`${what} needs Debian's ${pkg}, which CI installs (.ci/run); it is missing`);
  }
  console.warn(`skipping ${what}: Debian's ${pkg} is not installed (apt-get install ${pkg}; CI installs it)`);
  return false;
}
