import { parseArgs } from 'node:util';
import { InputError } from '@asof/schema';

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;
export type ParsedValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Strict option parsing shared by every asof command: unknown options and missing values become an
 * InputError (exit 2) that repeats the command's usage line. `--help`/`-h` is always accepted.
 */
export function parseCommandArgs(
  args: string[],
  options: OptionSpec,
  usage: string,
): { values: ParsedValues; positionals: string[] } {
  try {
    const r = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: r.values as ParsedValues, positionals: r.positionals };
  } catch (cause) {
    throw new InputError('USAGE', `${(cause as Error).message}\n  usage: ${usage}`, { cause });
  }
}
