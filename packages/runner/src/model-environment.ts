import { stripSecrets } from '@asof/http';
import { InputError } from '@asof/schema';

/**
 * What a model process inherits by default: enough to find programs, libraries and a language runtime,
 * its locale and its temp folder — never asof's own settings (`ASOF_*`: API keys, the SEC user agent,
 * the state folder). Names ending in `*` are prefixes. The user extends the list with `--env NAME` or
 * `--env PREFIX*` (docs/model-protocol.md, decision 0053).
 */
export const MODEL_ENV_DEFAULT: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TZ',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TMPDIR',
  'TMP',
  'TEMP',
  'LD_LIBRARY_PATH',
  // Language runtimes and their package environments.
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONUNBUFFERED',
  'VIRTUAL_ENV',
  'CONDA_*',
  'NODE_PATH',
  'R_HOME',
  'R_LIBS*',
  'JULIA_*',
  'JAVA_HOME',
  // Thread counts a numeric library reads.
  'OMP_NUM_THREADS',
  'MKL_NUM_THREADS',
  'OPENBLAS_NUM_THREADS',
  'CUDA_VISIBLE_DEVICES',
];

/** `NAME` or `PREFIX*`: a portable variable name, optionally a prefix. */
const PATTERN = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

/** Checks `--env` values: each a variable name or a `PREFIX*`. */
export function checkEnvAllow(names: readonly string[]): void {
  for (const name of names) {
    if (!PATTERN.test(name)) {
      throw new InputError(
        'RUN_BAD_ENV',
        `--env ${JSON.stringify(name)}: expected a variable name or a prefix ending in *, e.g. --env MY_MODEL_HOME or --env MY_MODEL_*`,
        { context: { value: name } },
      );
    }
  }
}

function allowed(name: string, patterns: readonly string[], explicit: boolean): boolean {
  return patterns.some((p) => {
    const hit = p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : name === p;
    // asof's own variables pass only when the user names them: `--env ASOF_X`, or a prefix that itself
    // starts with ASOF_ — never through a broad `--env A*`.
    if (!hit || !name.startsWith('ASOF_')) return hit;
    return explicit && (p === name || p.startsWith('ASOF_'));
  });
}

/** The model's environment: the variables of `env` on the default list or on the user's `--env` list. */
export function modelEnvironment(
  env: NodeJS.ProcessEnv,
  extra: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (allowed(name, MODEL_ENV_DEFAULT, false) || allowed(name, extra, true)) out[name] = value;
  }
  return out;
}

/** asof's secrets by name: a key, token, password or user agent among its own variables. */
const SECRET_NAME = /^ASOF_.*(KEY|TOKEN|SECRET|PASSWORD|USER_AGENT)/i;

/**
 * Scrubs text the model wrote (its stderr) of asof's secrets found in `env`, with the HTTP client's
 * redaction (any letter case, URL-encoded forms): a model that was handed a key with `--env`, or that
 * found one elsewhere, does not get it printed into asof's log. Values shorter than 4 characters are
 * not secrets worth hiding and would blank ordinary text.
 */
export function modelLogScrubber(env: NodeJS.ProcessEnv): (line: string) => string {
  const secretValues = Object.entries(env)
    .filter(
      ([name, value]) => SECRET_NAME.test(name) && typeof value === 'string' && value.trim().length >= 4,
    )
    .flatMap(([, value]) => [value as string, (value as string).trim()]);
  if (secretValues.length === 0) return (line) => line;
  return (line) => stripSecrets(line, { secretValues, secretParams: ['api_key'] });
}
