import { InputError } from '@asof/schema';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

/**
 * Reads the named top-level columns of a Parquet file as arrays (column-wise: no per-row objects).
 * Timestamps arrive as Date, INT64 as bigint, strings as string. Missing columns are absent from the result.
 */
export async function readParquetColumns(
  path: string,
  columns?: readonly string[],
): Promise<{ rows: number; columns: Record<string, ArrayLike<unknown>> }> {
  try {
    const file = await asyncBufferFromFile(path);
    const metadata = await parquetMetadataAsync(file);
    const names = parquetSchema(metadata).children.map((c) => c.element.name);
    const wanted = (columns ?? names).filter((c) => names.includes(c));
    const rows = Number(metadata.num_rows);
    const out: Record<string, unknown[]> = Object.fromEntries(wanted.map((c) => [c, new Array(rows)]));
    if (wanted.length && rows) {
      await parquetRead({
        file,
        metadata,
        columns: [...wanted],
        compressors,
        onChunk: ({ columnName, columnData, rowStart }) => {
          const dst = out[columnName];
          if (!dst) return;
          const end = Math.min(rows, rowStart + columnData.length);
          for (let i = rowStart; i < end; i++) dst[i] = columnData[i - rowStart];
        },
      });
    }
    return { rows, columns: out };
  } catch (cause) {
    if (cause instanceof InputError) throw cause;
    throw new InputError(
      'PARQUET_UNREADABLE',
      `${path}: not a readable Parquet file (${(cause as Error).message})`,
      {
        context: { file: path },
        cause,
      },
    );
  }
}
