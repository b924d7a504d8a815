// C0 and C1 control characters (ESC starts ANSI sequences; U+009B is a one-character CSI on some terminals).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// The same, plus bidi overrides/isolates, which reorder what a terminal or an editor displays.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The first control character (U+0000–U+001F, U+007F–U+009F) in `text` as `U+001B`, or null. */
export function controlCharacterIn(text: string): string | null {
  const m = CONTROL.exec(text);
  return m ? `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/**
 * `text` in double quotes with every control and bidi character written as `\uXXXX`, so a message that
 * quotes user input cannot move the cursor, recolour or rewrite a terminal. (JSON.stringify leaves
 * U+007F–U+009F and the bidi controls as they are.)
 */
export function quoteText(text: unknown): string {
  const json = JSON.stringify(typeof text === 'string' ? text : String(text));
  return json.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A column or file name as it is when it is plain (letters, digits, `._-`), else as quoteText writes it. */
export function nameText(text: string): string {
  return /^[\w.-]+$/.test(text) ? text : quoteText(text);
}
