import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Every request seen: path+query, headers, start time (performance.now() when the server saw it). */
  seen: { url: string; headers: IncomingMessage['headers']; at: number }[];
  close(): Promise<void>;
}

/** A real node:http server on an ephemeral 127.0.0.1 port (tests never touch the network). */
export async function startTestServer(
  handler: (req: IncomingMessage, res: ServerResponse, index: number) => unknown,
): Promise<TestServer> {
  const seen: TestServer['seen'] = [];
  const server = createServer((req, res) => {
    const index = seen.length;
    seen.push({ url: req.url ?? '', headers: req.headers, at: performance.now() });
    Promise.resolve(handler(req, res, index)).catch((error: unknown) => {
      res.statusCode = 599;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A clock whose sleep advances virtual time at once, so 10-minute pauses and backoff cost nothing. */
export function createFakeClock(start = 1_000_000): {
  now(): number;
  sleep(ms: number): Promise<void>;
  slept: number[];
} {
  let t = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += Math.max(0, ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** Max number of timestamps inside any half-open window [t, t + windowMs). */
export function maxInAnyWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while (sorted[hi] - sorted[lo] >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
