import { InputError } from '@asof/schema';

/**
 * The one place identifiers enter SQL text. Values never do: they are bound as `$name` parameters.
 * Refuses control characters rather than trying to escape them.
 */
export function quoteIdent(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (name.length === 0 || /[\u0000-\u001f]/.test(name)) {
    throw new InputError('BAD_IDENTIFIER', `not a usable SQL identifier: ${JSON.stringify(name)}`);
  }
  return `"${name.replaceAll('"', '""')}"`;
}

/** A string literal for the few places DuckDB accepts no parameter (COPY targets, SET values). */
export function quoteLiteral(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f]/.test(value)) {
    throw new InputError('BAD_LITERAL', `control characters are not allowed here: ${JSON.stringify(value)}`);
  }
  return `'${value.replaceAll("'", "''")}'`;
}
