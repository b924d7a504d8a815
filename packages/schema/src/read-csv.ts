import { InputError } from './asof-error.ts';

/** One CSV record: its cells and the 1-based line it starts on (for messages). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * RFC 4180 CSV: `,` separated, `"` quoted (`""` inside quotes), LF or CRLF line ends, a leading BOM
 * dropped. Cells are returned as written (no trimming). Blank lines are skipped. An unterminated quote is an
 * InputError naming the file and line.
 */
export function readCsv(text: string, file: string, code: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const out: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) out.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  while (i < src.length) {
    const c = src[i];
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      i++;
      continue;
    }
    if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      endRecord();
      if (c === '\r' && src[i + 1] === '\n') i++;
      line++;
      start = line;
    } else cell += c;
    i++;
  }
  if (quoted) {
    throw new InputError(
      code,
      `${file}: line ${start}: a quoted cell is never closed; the file is cut short or not a CSV, re-download or re-export it`,
      { context: { file, row: start } },
    );
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return out;
}
