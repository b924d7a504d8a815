// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from users (model names, series ids, unit names) as Markdown that renders as exactly that text,
 * inline and inside a table cell: every character Markdown, GFM tables or HTML could act on is
 * backslash-escaped (`\ | ` * _ < > [ ] # ~ & !`), a list or heading marker at the start is escaped,
 * line breaks become spaces (a cell is one line) and other control or bidi characters are written as
 * `\uXXXX`.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/[\\|`*_<>[\]#~&!]/g, '\\$&')
    .replace(/^(\s*)([-+=])/, '$1\\$2')
    .replace(/^(\s*\d+)([.)])/, '$1\\$2');
}
