import { AsofError, shownValue } from '@asof/schema';

/** The JSON form of an error (`--json`): what a script needs to act on it without parsing prose. */
export interface ErrorDocument {
  error: {
    code: string;
    /** The message's first line: what is wrong, actual vs expected. */
    message: string;
    /** The message's `hint:` lines, joined: the fix. */
    hint?: string;
    /** The command's usage line, for a usage error. */
    usage?: string;
    /** The process exit code: 2 bad input, 1 failure. */
    exit: number;
    /** The file, row, field and value involved, as the error names them. */
    context?: Record<string, unknown>;
  };
}

/** Whether a command line asked for JSON: `--json` before any `--` (after it, a positional). */
export function wantsJson(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/** Context values made safe for JSON and short: bigints as text, long or control-laden strings shown. */
function plainContext(context: Record<string, unknown>): Record<string, unknown> | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(context, (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'string') return shownValue(v, 500);
      return v;
    });
  } catch {
    // A context that cannot be written as JSON (a cycle) is left out, never a second failure.
    return undefined;
  }
  const plain = JSON.parse(text ?? '{}') as Record<string, unknown>;
  return Object.keys(plain).length > 0 ? plain : undefined;
}

/**
 * An error as one JSON object. The message's first line is `message`; its indented `hint:` and `usage:`
 * lines (the convention every asof error follows) become their own fields; other lines stay in `message`.
 */
export function errorDocument(err: unknown, exit: number): ErrorDocument {
  const known = err instanceof AsofError;
  const raw = known ? err.message : err instanceof Error ? err.message : String(err);
  const [first, ...more] = raw.split('\n');
  const fields: { message: string; hint?: string; usage?: string } = { message: first };
  for (const line of more) {
    const m = /^\s*(hint|usage):\s?(.*)$/.exec(line);
    if (m) {
      const key = m[1] as 'hint' | 'usage';
      fields[key] = fields[key] === undefined ? m[2] : `${fields[key]}; ${m[2]}`;
    } else if (line.trim()) fields.message += ` ${line.trim()}`;
  }
  return {
    error: {
      code: known ? err.code : 'UNEXPECTED_FAILURE',
      ...fields,
      exit,
      ...(known ? { context: plainContext(err.context) } : {}),
    },
  };
}

/** Longest error line printed whole; a longer one (a pasted file, a 100 KB value) is cut, saying its length. */
const ERROR_LINE_MAX = 2_000;

/**
 * An error's text as printed: whatever echoed a user's value unescaped, no control character or bidi override
 * reaches the terminal (a newline stays: it separates the `hint:` lines), and no line runs past
 * ERROR_LINE_MAX characters.
 */
export function safeErrorText(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const clean = line.replace(
        // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it escapes
        /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
        (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`,
      );
      return clean.length > ERROR_LINE_MAX
        ? `${clean.slice(0, ERROR_LINE_MAX)}… (${clean.length.toLocaleString('en-US')} characters)`
        : clean;
    })
    .join('\n');
}
