import { InputError } from '@asof/schema';
import type { z } from 'zod';

/**
 * Turns a zod failure on a raw SEC payload into an InputError that names the file, the JSON path and
 * the offending value, and says how to fix it. Values are shortened: payloads can be megabytes.
 */
export function payloadError(code: string, where: string, what: string, error: z.ZodError): InputError {
  const lines = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length === 0 ? '(root)' : issue.path.map(String).join('.');
    return `at ${path}: ${issue.message}`;
  });
  const more = error.issues.length > 5 ? `; … and ${error.issues.length - 5} more issue(s)` : '';
  // One line: the file, the JSON path of each issue and the value, then the fix.
  return new InputError(
    code,
    `${where}: not a valid ${what}: ${lines.join('; ')}${more}. ` +
      `Fix: pass the unmodified SEC response body (re-download it, or delete the bad file from the raw directory).`,
    {
      context: {
        where,
        issues: error.issues.slice(0, 5).map((i) => ({ path: i.path.map(String), message: i.message })),
      },
    },
  );
}
