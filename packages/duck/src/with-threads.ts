import type { Duck } from './open-duck.ts';

/** DuckDB's `threads` setting: the threads a query may use, the one that runs it included. */
export async function threadsOf(duck: Duck): Promise<number> {
  const r = await duck.one<{ t: string }>("SELECT current_setting('threads') AS t");
  return Math.max(1, Number(r.t));
}

/**
 * Runs `work` with DuckDB's `threads` setting at `threads(current)` and sets it back afterwards, however
 * `work` ends. The setting is the instance's, not the connection's: a query another connection runs
 * meanwhile gets the same count.
 */
export async function withThreads<T>(
  duck: Duck,
  threads: (current: number) => number,
  work: () => Promise<T>,
): Promise<T> {
  const current = await threadsOf(duck);
  await duck.run(`SET threads = ${Math.max(1, Math.floor(threads(current)))}`);
  try {
    return await work();
  } finally {
    await duck.run(`SET threads = ${current}`);
  }
}
