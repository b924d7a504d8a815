import { type DuckDBAppender, DuckDBDataChunk, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';

const CHUNK = 2048;

/**
 * Synchronous row appends into a DuckDB table, buffered column-wise and handed over a data chunk
 * (2048 rows) at a time — far fewer native calls than one per value.
 */
export class TableAppender {
  private readonly columns: DuckDBValue[][];
  private n = 0;
  rows = 0;

  constructor(
    private readonly appender: DuckDBAppender,
    private readonly types: readonly DuckDBType[],
  ) {
    this.columns = types.map(() => new Array<DuckDBValue>(CHUNK));
  }

  push(row: readonly DuckDBValue[]): void {
    for (let c = 0; c < row.length; c++) this.columns[c][this.n] = row[c];
    this.n++;
    this.rows++;
    if (this.n === CHUNK) this.flushChunk();
  }

  private flushChunk(): void {
    if (this.n === 0) return;
    const chunk = DuckDBDataChunk.create(this.types, this.n);
    for (let c = 0; c < this.columns.length; c++) {
      chunk.setColumnValues(c, this.n === CHUNK ? this.columns[c] : this.columns[c].slice(0, this.n));
    }
    this.appender.appendDataChunk(chunk);
    this.n = 0;
  }

  /** Flushes buffered rows and closes the appender; the rows are then visible to queries. */
  close(): void {
    this.flushChunk();
    this.appender.closeSync();
  }
}
