import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addIsoDays, isoWeekday } from '@asof/calendar';
import type { Clock } from '@asof/http';
import type { FredObservation } from '@asof/source-fred';

/**
 * A FRED/ALFRED look-alike on 127.0.0.1 for tests and the bench (no test touches the internet). It applies
 * ALFRED's realtime semantics: rows whose realtime interval meets the requested window come back clipped
 * to it, a window holding more than `maxVintageDates` vintage dates is refused with FRED's error JSON, and
 * observations are paged with limit/offset.
 */
export interface MockFredSeries {
  id: string;
  title: string;
  frequency_short: string;
  units: string;
  seasonal_adjustment_short: string;
  releaseId: number;
  /** Every vintage row, unclipped (realtime_end 9999-12-31 for the current one). */
  rows: FredObservation[];
}

export interface MockFredOptions {
  apiKey: string;
  series: MockFredSeries[];
  releases?: Record<number, { name: string; dates: string[] }>;
  /** Time stamped on each request (a fake or scaled clock in tests and the bench). Default Date.now. */
  clock?: Pick<Clock, 'now'>;
  /** Status to answer instead of the real response for request number `index` (0-based), e.g. 429 or 503. */
  inject?: (index: number, path: string) => number | undefined;
  maxVintageDates?: number;
}

export interface MockFredServer {
  /** e.g. http://127.0.0.1:41234/fred */
  baseUrl: string;
  requests: { path: string; query: Record<string, string>; at: number; status: number }[];
  close(): Promise<void>;
}

function fredError(code: number, message: string): string {
  return JSON.stringify({ error_code: code, error_message: message });
}

/** FRED's fred/series answer for one series, as of the recorded 2025-01-20. */
function seriesPayload(s: MockFredOptions['series'][number]) {
  return {
    realtime_start: '2025-01-20',
    realtime_end: '2025-01-20',
    seriess: [
      {
        id: s.id,
        realtime_start: '2025-01-20',
        realtime_end: '2025-01-20',
        title: s.title,
        frequency: s.frequency_short,
        frequency_short: s.frequency_short,
        units: s.units,
        seasonal_adjustment: s.seasonal_adjustment_short,
        seasonal_adjustment_short: s.seasonal_adjustment_short,
      },
    ],
  };
}

export async function startMockFredServer(options: MockFredOptions): Promise<MockFredServer> {
  const now = () => (options.clock ?? { now: () => Date.now() }).now();
  const maxV = options.maxVintageDates ?? 2000;
  const byId = new Map(options.series.map((s) => [s.id, s]));
  const vintages = new Map(
    options.series.map((s) => [s.id, [...new Set(s.rows.map((r) => r.realtime_start))].sort()]),
  );
  const requests: MockFredServer['requests'] = [];
  const windowRows = new Map<string, FredObservation[]>();
  const sortedRows = new Map(
    options.series.map((s) => [
      s.id,
      [...s.rows].sort((a, b) =>
        a.date < b.date ? -1 : a.date > b.date ? 1 : a.realtime_start < b.realtime_start ? -1 : 1,
      ),
    ]),
  );

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/fred\//, '');
    const q = Object.fromEntries(url.searchParams.entries());
    const index = requests.length;
    const record = {
      path,
      query: { ...q, api_key: q.api_key === undefined ? '' : '(given)' },
      at: now(),
      status: 200,
    };
    requests.push(record);
    const send = (status: number, body: string) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    const injected = options.inject?.(index, path);
    if (injected !== undefined) {
      send(
        injected,
        fredError(
          injected,
          injected === 429 ? 'Too Many Requests.  Exceeded Rate Limit' : 'Internal Server Error',
        ),
      );
      return;
    }
    if (q.api_key !== options.apiKey) {
      send(400, fredError(400, 'Bad Request.  The value for variable api_key is not registered.'));
      return;
    }
    const s = q.series_id === undefined ? undefined : byId.get(q.series_id);
    if (q.series_id !== undefined && s === undefined) {
      // Real FRED does not echo the key; this mock does, to prove the client scrubs what servers send back.
      send(400, fredError(400, `Bad Request.  The series does not exist. (api_key=${q.api_key})`));
      return;
    }
    const start = q.realtime_start ?? '1776-07-04';
    const end = q.realtime_end ?? '9999-12-31';
    const limit = Number(q.limit ?? 100000);
    const offset = Number(q.offset ?? 0);
    switch (path) {
      case 'series':
        send(200, JSON.stringify(seriesPayload(s!)));
        return;
      case 'series/release': {
        const rel = options.releases?.[s!.releaseId];
        send(
          200,
          JSON.stringify({ releases: [{ id: s!.releaseId, name: rel?.name ?? `Release ${s!.releaseId}` }] }),
        );
        return;
      }
      case 'series/vintagedates': {
        const all = vintages.get(s!.id)!.filter((d) => d >= start && d <= end);
        send(
          200,
          JSON.stringify({
            realtime_start: start,
            realtime_end: end,
            count: all.length,
            offset,
            limit,
            vintage_dates: all.slice(offset, offset + limit),
          }),
        );
        return;
      }
      case 'series/observations': {
        const inWindow = vintages.get(s!.id)!.filter((d) => d >= start && d <= end).length;
        if (inWindow > maxV) {
          send(
            400,
            fredError(
              400,
              `Bad Request.  This request exceeds the maximum number of vintage dates allowed (${maxV}). ` +
                `It contains ${inWindow}.`,
            ),
          );
          return;
        }
        // Rows are sorted by (date, realtime_start) and a date's intervals are disjoint, so clipping keeps the order.
        const windowKey = `${s!.id}|${start}|${end}`;
        let rows = windowRows.get(windowKey);
        if (rows === undefined) {
          rows = sortedRows
            .get(s!.id)!
            .filter((r) => r.realtime_start <= end && r.realtime_end >= start)
            .map((r) => ({
              realtime_start: [r.realtime_start, start].sort()[1],
              realtime_end: [r.realtime_end, end].sort()[0],
              date: r.date,
              value: r.value,
            }));
          windowRows.set(windowKey, rows);
        }
        send(
          200,
          JSON.stringify({
            realtime_start: start,
            realtime_end: end,
            output_type: 1,
            count: rows.length,
            offset,
            limit,
            observations: rows.slice(offset, offset + limit),
          }),
        );
        return;
      }
      case 'release/dates': {
        const id = Number(q.release_id);
        const rel = options.releases?.[id];
        if (rel === undefined) {
          send(400, fredError(400, 'Bad Request.  The release does not exist.'));
          return;
        }
        const dates = rel.dates.slice(offset, offset + limit).map((date) => ({ release_id: id, date }));
        send(200, JSON.stringify({ count: rel.dates.length, offset, limit, release_dates: dates }));
        return;
      }
      default:
        send(404, fredError(404, 'Not Found'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/fred`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A business-daily series with `nVintages` vintage dates (consecutive weekdays from 2000-01-03): vintage k
 * first-releases the value of the previous weekday (every 97th first release is "." and filled the next
 * vintage) and revises the value of five vintages earlier.
 */
export function manyVintageSeries(id: string, nVintages: number): MockFredSeries {
  const vintageDates: string[] = [];
  for (let d = '2000-01-03'; vintageDates.length < nVintages; d = addIsoDays(d, 1)) {
    const wd = isoWeekday(d);
    if (wd !== 0 && wd !== 6) vintageDates.push(d);
  }
  const history = new Map<string, { k: number; value: string }[]>();
  const push = (date: string, k: number, value: string) => {
    let h = history.get(date);
    if (h === undefined) {
      h = [];
      history.set(date, h);
    }
    h.push({ k, value });
  };
  const obsDate = (k: number) => (k === 0 ? addIsoDays(vintageDates[0], -3) : vintageDates[k - 1]);
  for (let k = 0; k < nVintages; k++) {
    const first = k % 97 === 5 ? '.' : (100 + k * 0.01).toFixed(2);
    push(obsDate(k), k, first);
    if (k >= 1 && (k - 1) % 97 === 5) push(obsDate(k - 1), k, (100 + (k - 1) * 0.01).toFixed(2));
    if (k >= 5) push(obsDate(k - 5), k, (100.5 + (k - 5) * 0.01).toFixed(2));
  }
  const rows: FredObservation[] = [];
  for (const [date, h] of history) {
    h.sort((a, b) => a.k - b.k);
    for (let i = 0; i < h.length; i++) {
      rows.push({
        realtime_start: vintageDates[h[i].k],
        realtime_end: i + 1 < h.length ? addIsoDays(vintageDates[h[i + 1].k], -1) : '9999-12-31',
        date,
        value: h[i].value,
      });
    }
  }
  rows.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.realtime_start < b.realtime_start ? -1 : 1,
  );
  return {
    id,
    title: `Mock series with ${nVintages} vintage dates`,
    frequency_short: 'D',
    units: 'Percent',
    seasonal_adjustment_short: 'NSA',
    releaseId: 18,
    rows,
  };
}

/** Most requests whose timestamps fall in any window [t, t + windowMs). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while (t[hi] - t[lo] >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/** Virtual time: `sleep` advances it at once, so a minute of rate limiting costs nothing in a test. */
export function createVirtualClock(start = 0): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms) => {
      t = Math.max(t, t + Math.max(0, ms));
      await new Promise((resolve) => setImmediate(resolve));
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/** Real time sped up `factor` times: a 60-s window passes in 60/factor real seconds. */
export function createScaledClock(factor: number): Clock {
  const origin = performance.now();
  return {
    now: () => (performance.now() - origin) * factor,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms / factor))),
  };
}
