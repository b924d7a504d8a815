import type { z } from 'zod';
import { InputError } from './asof-error.ts';

/**
 * How many issues a message lists. A raw payload can be megabytes and fail at every row; the first few locate
 * the problem, the rest only bury the fix, so they are counted instead.
 */
export const ZOD_ISSUES_SHOWN = 5;

type ZodIssue = z.core.$ZodIssue;

/** A field path as every asof message writes it: keys and indices joined by dots, `(root)` for the value itself. */
export function zodIssuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(root)' : path.map(String).join('.');
}

/**
 * The issue to report first. When every branch of a union fails, zod's own issue says only "Invalid input";
 * the first branch's first issue (with the full path) says which field broke and how.
 */
export function firstZodIssue(error: z.ZodError): ZodIssue {
  const issue = error.issues[0];
  if (issue.code === 'invalid_union' && issue.errors.length) {
    const branch = issue.errors[0];
    if (branch.length) return { ...branch[0], path: [...issue.path, ...branch[0].path] };
  }
  return issue;
}

/** One issue as `path: message`; unknown keys get their names and the fix, which zod's message lacks. */
export function formatZodIssue(issue: ZodIssue): string {
  const path = zodIssuePath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys;
    return `${path}: unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `'${k}'`).join(', ')} (remove or fix the spelling)`;
  }
  return `${path}: ${issue.message}`;
}

/** The first {@link ZOD_ISSUES_SHOWN} issues as `path: message`, joined by `; `, then how many more there are. */
export function formatZodIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, ZOD_ISSUES_SHOWN).map(formatZodIssue);
  const more = error.issues.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; … and ${more} more issue${more > 1 ? 's' : ''}` : ''}`;
}

/** What a zod failure message says besides the issues. */
export interface ZodProblem {
  /** What the value should have been ("SEC submissions JSON"); the message says `not a valid <what>`. */
  what?: string;
  /** The fix, on the message's indented `hint:` line (the line `--json` reports as `hint`). */
  hint?: string;
}

/**
 * The one message style for a value zod rejected:
 * `<where>: [not a valid <what>: ]<path>: <message>[; …][; … and N more issues]` and an indented `hint:` line.
 * `where` is the file, URL, row or series the value came from.
 */
export function zodMessage(where: string, error: z.ZodError, problem: ZodProblem = {}): string {
  const what = problem.what ? `not a valid ${problem.what}: ` : '';
  return `${where}: ${what}${formatZodIssues(error)}${problem.hint ? `\n  hint: ${problem.hint}` : ''}`;
}

/**
 * The context every zod failure carries: where, the first issue's field path, and the issues shown.
 * Callers add their own keys (a series id, a batch) through `context`.
 */
export function zodContext(where: string, error: z.ZodError): Record<string, unknown> {
  return {
    file: where,
    field: zodIssuePath(error.issues[0]?.path ?? []),
    issues: error.issues.slice(0, ZOD_ISSUES_SHOWN).map(formatZodIssue),
  };
}

/** Turns a zod failure into one InputError in {@link zodMessage}'s style, with the zod error as its cause. */
export function zodInputError(
  code: string,
  where: string,
  error: z.ZodError,
  problem: ZodProblem & { context?: Record<string, unknown> } = {},
): InputError {
  return new InputError(code, zodMessage(where, error, problem), {
    context: { ...zodContext(where, error), ...problem.context },
    cause: error,
  });
}
