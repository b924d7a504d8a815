import { type Table, tableFromArrays } from 'apache-arrow';
import type { Duck, Params } from './open-duck.ts';

/**
 * Streams a query into apache-arrow tables, one per DuckDB chunk (≤ 2048 rows), for TypeScript-side
 * computation. Numeric columns become Float64 (NULL → NaN; BIGINT via Number, so keep them < 2^53),
 * VARCHAR becomes Utf8, BOOLEAN Bool. Cast timestamps to epoch micros in SQL (`epoch_us(ts)`) first.
 */
export async function streamArrow(
  duck: Duck,
  sql: string,
  params: Params | undefined,
  onBatch: (batch: Table) => void | Promise<void>,
): Promise<number> {
  const result = await duck.stream(sql, params);
  const names = result.columnNames();
  let rows = 0;
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const cols: Record<string, Float64Array | string[] | boolean[]> = {};
    for (let c = 0; c < names.length; c++) {
      const values = chunk.getColumnValues(c);
      const first = values.find((v) => v !== null);
      if (typeof first === 'string') {
        cols[names[c]] = values.map((v) => (v === null ? '' : String(v)));
      } else if (typeof first === 'boolean') {
        cols[names[c]] = values.map((v) => v === true);
      } else {
        const out = new Float64Array(values.length);
        for (let i = 0; i < values.length; i++) {
          const v = values[i];
          out[i] = v === null ? Number.NaN : Number(v as number | bigint);
        }
        cols[names[c]] = out;
      }
    }
    rows += chunk.rowCount;
    await onBatch(tableFromArrays(cols as Parameters<typeof tableFromArrays>[0]));
  }
  return rows;
}
