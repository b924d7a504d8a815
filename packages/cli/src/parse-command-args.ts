import { parseArgs } from 'node:util';
import { InputError } from '@asof/schema';

export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;
export type ParsedValues = Record<string, string | boolean | string[] | undefined>;

/**
 * `--limit -1` as `--limit=-1`: a value option followed by a negative number takes it as its value (Node's
 * parser would call it ambiguous), so the command's own check names the value and what it expects.
 */
function negativeValuesJoined(args: string[], options: OptionSpec): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return [...out, ...args.slice(i)];
    const name = a.startsWith('--') ? a.slice(2) : undefined;
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

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
      args: negativeValuesJoined(args, options),
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: r.values as ParsedValues, positionals: r.positionals };
  } catch (cause) {
    throw new InputError('USAGE', `${(cause as Error).message}\n  usage: ${usage}`, { cause });
  }
}
