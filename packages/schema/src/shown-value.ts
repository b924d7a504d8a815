/** Longest user value echoed whole in a message; a longer one is cut, saying how long it was. */
export const SHOWN_VALUE_MAX = 80;

/**
 * A value the user typed (a series id, a name, a path), as an error message may echo it: control characters
 * escaped (`\n`, `\x1b`, so a newline cannot split the one-line error nor an escape sequence reach the
 * terminal) and cut at SHOWN_VALUE_MAX characters (a 100,000-character id is not printed whole).
 */
export function shownValue(value: string, max = SHOWN_VALUE_MAX): string {
  const chars = [...value];
  const cut = chars.length > max ? chars.slice(0, max) : chars;
  const escaped = cut
    .map((c) => {
      const code = c.codePointAt(0) as number;
      if (c === '\n') return '\\n';
      if (c === '\r') return '\\r';
      if (c === '\t') return '\\t';
      // C0, DEL, C1 and the bidirectional overrides (U+202A–U+202E, U+2066–U+2069) would change what the
      // terminal shows.
      if (
        code < 0x20 ||
        (code >= 0x7f && code < 0xa0) ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069)
      )
        return `\\u{${code.toString(16)}}`;
      return c;
    })
    .join('');
  return chars.length > max ? `${escaped}… (${chars.length.toLocaleString('en-US')} characters)` : escaped;
}

/**
 * An error message on one line, for a record that keeps it (a manifest warning, a skip list): its indented
 * `hint:` line (zodInputError and the CLI's errors put the fix there) joins the message after `; hint: `.
 */
export function oneLineMessage(message: string): string {
  return message.replace(/\r?\n\s*/g, '; ');
}
