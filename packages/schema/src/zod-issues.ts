import type { z } from 'zod';
import { InputError } from './asof-error.ts';

/** Turns zod issues into one InputError whose message names the file and each field path. */
export function zodInputError(code: string, file: string, error: z.ZodError, hint?: string): InputError {
  const lines = error.issues.map((issue) => {
    const path = issue.path.length ? issue.path.join('.') : '(top level)';
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys: string[] }).keys;
      return `${path}: unknown key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `'${k}'`).join(', ')} (remove or fix the spelling)`;
    }
    return `${path}: ${issue.message}`;
  });
  const first = error.issues[0];
  return new InputError(code, `${file}: ${lines.join('; ')}${hint ? `\n  hint: ${hint}` : ''}`, {
    context: { file, field: first?.path.join('.') ?? '', issues: lines },
    cause: error,
  });
}
