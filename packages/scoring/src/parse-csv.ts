import { InputError } from '@asof/schema';

/**
 * RFC 4180 CSV: comma separator, optional double quotes ("" inside quotes is a quote), LF or CRLF line
 * ends, optional UTF-8 BOM, blank lines skipped. Returns the header and the columns as strings; a row
 * with a different number of fields than the header is an error naming its line.
 */
export function parseCsv(
  text: string,
  source: string,
): { header: string[]; columns: string[][]; lines: number[] } {
  const rows: string[][] = [];
  const lines: number[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) {
            throw new InputError(
              'CSV_UNTERMINATED_QUOTE',
              `${source} line ${startLine}: a quoted field never closes`,
              {
                context: { file: source, row: startLine },
              },
            );
          }
          const c = text[i];
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
            } else {
              i++;
              break;
            }
          } else {
            if (c === '\n') line++;
            field += c;
            i++;
          }
        }
      } else {
        const start = i;
        while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') i++;
        field = text.slice(start, i);
      }
      fields.push(field);
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '\r') i++;
      if (text[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    if (fields.length === 1 && fields[0] === '') continue;
    rows.push(fields);
    lines.push(startLine);
  }
  if (rows.length === 0) {
    throw new InputError('CSV_EMPTY', `${source}: empty file; expected a header line and rows`, {
      context: { file: source },
    });
  }
  const header = rows[0].map((h) => h.trim());
  const columns: string[][] = header.map(() => new Array(rows.length - 1));
  for (let r = 1; r < rows.length; r++) {
    const fields = rows[r];
    if (fields.length !== header.length) {
      throw new InputError(
        'CSV_FIELD_COUNT',
        `${source} line ${lines[r]}: ${fields.length} fields, expected ${header.length} (${header.join(',')})`,
        { context: { file: source, row: lines[r], value: fields.length } },
      );
    }
    for (let c = 0; c < fields.length; c++) columns[c][r - 1] = fields[c];
  }
  return { header, columns, lines: lines.slice(1) };
}
