import { createReadStream } from 'node:fs';
import { InputError } from '@asof/schema';

const COMMA = 44;
const LF = 10;
const CR = 13;
const QUOTE = 34;

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: it closes the field, or is the first half of "". */
const QUOTE_SEEN = 3;

/**
 * A field this long is taken for a quote left open (a quoted field runs to the next lone quote, which may
 * be gigabytes later) and refused before it meets the engine's string limit.
 */
export const MAX_CSV_FIELD = 1 << 24;

/**
 * Called once per non-blank row with its fields and the line the row starts on (line 1 is the first).
 * `fields` is reused for the next row: copy it to keep it. Return false to stop reading.
 */
export type CsvRowHandler = (fields: string[], line: number) => boolean | undefined;

/**
 * An incremental RFC 4180 parser: comma separator, optional double quotes ("" inside quotes is a quote),
 * LF or CRLF line ends (a lone CR ends a row too), optional UTF-8 BOM, blank lines skipped. Text is pushed
 * in chunks of any size, so a file of any length is parsed in constant memory beyond its rows' fields.
 * A quote opens a quoted field only at the start of a field; text after a closing quote is an error.
 */
export class CsvParser {
  private fields: string[] = [];
  private field = '';
  private state = FIELD_START;
  private line = 1;
  private rowLine = 1;
  private started = false;
  private stopped = false;

  constructor(
    private readonly source: string,
    private readonly onRow: CsvRowHandler,
    private readonly maxField = MAX_CSV_FIELD,
  ) {}

  /** Parses a chunk; false once the handler has asked to stop (further chunks are ignored). */
  push(chunk: string): boolean {
    if (this.stopped) return false;
    const n = chunk.length;
    let i = 0;
    if (!this.started && n > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) i = 1;
    }
    // Positions of the next LF, quote and CR at or after i (n: none), for the fast path below; each is
    // searched again only once passed, so a chunk is scanned a bounded number of times.
    let nextLf = -1;
    let nextQuote = -1;
    let nextCr = -1;
    while (i < n) {
      const state = this.state;
      if (state === FIELD_START && this.fields.length === 0) {
        // Fast path for a whole row in this chunk with no quote and no lone CR before its LF (most rows):
        // split it with indexOf, which beats a character loop several times over.
        if (nextLf < i) {
          const f = chunk.indexOf('\n', i);
          nextLf = f === -1 ? n : f;
        }
        const lf = nextLf;
        if (lf < n) {
          if (nextQuote < i) {
            const q = chunk.indexOf('"', i);
            nextQuote = q === -1 ? n : q;
          }
          if (nextCr < i) {
            const r = chunk.indexOf('\r', i);
            nextCr = r === -1 ? n : r;
          }
          // A CR right before the LF is a CRLF line end.
          const end = nextCr === lf - 1 ? lf - 1 : lf;
          if (nextQuote > lf && nextCr >= end) {
            const fields = this.fields;
            let start = i;
            for (let comma = chunk.indexOf(',', start); comma !== -1 && comma < end; ) {
              fields.push(chunk.slice(start, comma));
              start = comma + 1;
              comma = chunk.indexOf(',', start);
            }
            fields.push(chunk.slice(start, end));
            i = lf + 1;
            if (!this.endRow(true)) return false;
            continue;
          }
        }
      }
      if (state === FIELD_START && chunk.charCodeAt(i) === QUOTE) {
        this.state = QUOTED;
        i++;
      } else if (state === FIELD_START || state === UNQUOTED) {
        let j = i;
        let c = 0;
        while (j < n) {
          c = chunk.charCodeAt(j);
          if (c === COMMA || c === LF || c === CR) break;
          j++;
        }
        this.field = this.field === '' ? chunk.slice(i, j) : this.field + chunk.slice(i, j);
        if (j === n) {
          this.state = UNQUOTED;
          this.checkLength();
          return true;
        }
        i = j + 1;
        this.endField();
        if (c !== COMMA && !this.endRow(c === LF)) return false;
      } else if (state === QUOTED) {
        const q = chunk.indexOf('"', i);
        const end = q === -1 ? n : q;
        for (let k = chunk.indexOf('\n', i); k !== -1 && k < end; k = chunk.indexOf('\n', k + 1)) this.line++;
        this.field += chunk.slice(i, end);
        this.checkLength();
        if (q === -1) return true;
        i = q + 1;
        this.state = QUOTE_SEEN;
      } else {
        const c = chunk.charCodeAt(i);
        i++;
        if (c === QUOTE) {
          this.field += '"';
          this.state = QUOTED;
        } else if (c === COMMA) {
          this.endField();
        } else if (c === LF || c === CR) {
          this.endField();
          if (!this.endRow(c === LF)) return false;
        } else {
          throw new InputError(
            'CSV_TEXT_AFTER_QUOTE',
            `${this.source} line ${this.line}: text after the closing quote of a field; inside a quoted field write a quote as ""`,
            { context: { file: this.source, row: this.line } },
          );
        }
      }
    }
    return true;
  }

  /** Ends the input: completes the last row (a file need not end with a line break). */
  end(): void {
    if (this.stopped) return;
    if (this.state === QUOTED) {
      throw new InputError(
        'CSV_UNTERMINATED_QUOTE',
        `${this.source} line ${this.rowLine}: a quoted field never closes; close it with " (a quote inside one is written "")`,
        { context: { file: this.source, row: this.rowLine } },
      );
    }
    if (this.state !== FIELD_START || this.fields.length > 0) {
      this.endField();
      this.endRow(false);
    }
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.state = FIELD_START;
  }

  /** Hands the row over (unless blank); false when the handler asked to stop. */
  private endRow(lineFeed: boolean): boolean {
    const fields = this.fields;
    if (!(fields.length === 1 && fields[0] === '') && this.onRow(fields, this.rowLine) === false) {
      this.stopped = true;
    }
    fields.length = 0;
    if (lineFeed) this.line++;
    this.rowLine = this.line;
    return !this.stopped;
  }

  private checkLength(): void {
    if (this.field.length > this.maxField) {
      throw new InputError(
        'CSV_FIELD_TOO_LONG',
        `${this.source} line ${this.rowLine}: a field longer than ${this.maxField.toLocaleString('en-US')} characters; most likely a quote opened here never closes`,
        { context: { file: this.source, row: this.rowLine } },
      );
    }
  }
}

/**
 * Streams a CSV file through `onRow` (see CsvParser), never holding more than one chunk of its text.
 * Resolves when the file ends or the handler returns false; errors thrown by the handler propagate.
 */
export async function streamCsvFile(path: string, onRow: CsvRowHandler, source = path): Promise<void> {
  const parser = new CsvParser(source, onRow);
  // 'utf8' decoding keeps a character split across two chunks whole.
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 22 });
  try {
    for await (const chunk of stream) {
      if (!parser.push(chunk as string)) return;
    }
    parser.end();
  } finally {
    stream.destroy();
  }
}

/**
 * Parses CSV text held in memory (small inputs): the header and the columns as strings, and the line each
 * data row starts on. A row with a different number of fields than the header is an error naming its line.
 */
export function parseCsv(
  text: string,
  source: string,
): { header: string[]; columns: string[][]; lines: number[] } {
  let header: string[] | null = null;
  let columns: string[][] = [];
  const lines: number[] = [];
  const parser = new CsvParser(source, (fields, line) => {
    if (header === null) {
      header = fields.map((h) => h.trim());
      columns = header.map(() => []);
      return true;
    }
    checkFieldCount(source, header, fields, line);
    for (let c = 0; c < fields.length; c++) columns[c].push(fields[c]);
    lines.push(line);
    return true;
  });
  parser.push(text);
  parser.end();
  if (header === null) {
    throw new InputError('CSV_EMPTY', `${source}: empty file; expected a header line and rows`, {
      context: { file: source },
    });
  }
  return { header, columns, lines };
}

/** A row must have as many fields as the header. */
export function checkFieldCount(
  source: string,
  header: readonly string[],
  fields: readonly string[],
  line: number,
): void {
  if (fields.length !== header.length) {
    throw new InputError(
      'CSV_FIELD_COUNT',
      `${source} line ${line}: ${fields.length} fields, expected ${header.length} (${header.join(',')}); quote a field that contains a comma`,
      { context: { file: source, row: line, value: fields.length } },
    );
  }
}
