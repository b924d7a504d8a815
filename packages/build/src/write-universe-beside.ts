import { type Duck, withThreads } from '@asof/duck';
import { type WrittenTable, writeUniverse } from '@asof/transform';

/**
 * Below this many staged rows (the sources' through the sink and the scale source's, inserted in SQL), the
 * universe's files are written while the segments are built. Measured on the default build (5.4M rows):
 * segments then files took 3.7–3.9 s one after the other, 3.1–3.4 s side by side. Above it, the two would
 * hold their memory at once (a sort of every observation beside the segments' ranges), which was not
 * measured, so a bigger universe keeps them in turn.
 */
export const WRITE_BESIDE_SEGMENTS_BELOW_ROWS = 10_000_000;

/**
 * Side by side, the BD file's ordered COPY and the segments' queries pin their blocks at the same time and
 * cannot spill each other's: the default build (5.4M rows) then fails at memory_limit 250MB and builds at
 * 300MB, the tiny pipeline (107k rows) fails at 64MB and builds at 96MB, while in turn they build at 200MB
 * and 64MB. So the files go beside the segments only when the limit holds this floor plus this much per
 * staged row (the default build: 670MB, twice what it was measured to need; docs/decisions/0062).
 */
export const BESIDE_SEGMENTS_MIN_BYTES = 128e6;
export const BESIDE_SEGMENTS_BYTES_PER_ROW = 100;

/**
 * Whether the files are written beside the segments: below WRITE_BESIDE_SEGMENTS_BELOW_ROWS, and with a
 * memory limit (in bytes; null when unknown) that leaves room for both. The files are the same bytes
 * either way.
 */
export function writesBesideSegments(stagedRows: number, memoryLimitBytes: number | null): boolean {
  if (stagedRows >= WRITE_BESIDE_SEGMENTS_BELOW_ROWS) return false;
  if (memoryLimitBytes === null) return true;
  return memoryLimitBytes >= BESIDE_SEGMENTS_MIN_BYTES + BESIDE_SEGMENTS_BYTES_PER_ROW * stagedRows;
}

/**
 * Writes the universe's files (writeUniverse) on a second connection while `segments` runs on `duck`: the
 * files do not read the segments, and the segments' TypeScript pass leaves DuckDB's threads idle part of the
 * time. Either's error is thrown once both have settled, so no query is left running on a closed connection.
 *
 * Meanwhile DuckDB's `threads` is one lower (at least 1; set back after). The setting counts the thread
 * that runs a query besides `threads − 1` shared workers, so two connections' queries at once would use
 * one thread more than the pipeline gives. At one thread the BD file's ordered COPY also buffers its
 * sorted rows one batch at a time instead of ~250 MB of them: the default build faults ~60k fewer pages
 * and its segments and files take ~0.5 s less (docs/decisions/0040). The files are the same bytes: every
 * one is ORDER BY'd on its grain, and segment_stats runs on one thread in any case.
 */
export async function writeUniverseBeside(
  duck: Duck,
  dir: string,
  segments: () => Promise<void>,
): Promise<WrittenTable[]> {
  const writer = await duck.connect();
  try {
    return await withThreads(
      duck,
      (threads) => threads - 1,
      async () => {
        const [files, built] = await Promise.allSettled([writeUniverse(writer, dir), segments()]);
        if (built.status === 'rejected') throw built.reason;
        if (files.status === 'rejected') throw files.reason;
        return files.value;
      },
    );
  } finally {
    writer.close();
  }
}
