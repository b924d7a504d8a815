/**
 * The compact split layout (`asof split --layout compact`, packages/split input_rows.sql and
 * target_rows.sql) holds each observation vintage and each grid step's target once. These functions give
 * the scorer the same per-origin view the per-origin layout spells out:
 *  - the input at origin o of series s is the rows with lookback_start <= timestamp <= o,
 *    available_at <= o and (superseded_at null or > o);
 *  - the target of origin o at step k is the row with step_index = o's origin_index + k.
 */

/** Compact input rows of one table, columns as read (instants already epoch ms). */
export interface CompactInputs {
  series_id: string[];
  ts: number[];
  av: number[];
  /** NaN when the vintage is never superseded */
  sup: number[];
  value: number[];
}

export interface CompactOrigin {
  series_id: string;
  /** epoch ms */
  origin: number;
  /** epoch ms; NaN when the origin has no inputs */
  lookbackStart: number;
}

/**
 * The last `maxTail` input values at each origin (oldest first), with their timestamps (null for an origin
 * that sees none), and which rows some origin is served (`served[i] = 1`): the file also holds vintages no
 * origin's window reaches (a late first release of a timestamp older than every later window), which the
 * per-origin layout does not carry. Per series the rows are sorted once by (timestamp, available_at); each
 * origin walks back from its last timestamp to its lookback_start, taking the one vintage of each timestamp
 * live at the origin.
 */
export function compactInputTails(
  rows: CompactInputs,
  origins: readonly CompactOrigin[],
  maxTail: number,
): { tails: ({ ts: number[]; values: number[] } | null)[]; served: Uint8Array } {
  const served = new Uint8Array(rows.series_id.length);
  const bySeries = new Map<string, number[]>();
  for (let i = 0; i < rows.series_id.length; i++) {
    let list = bySeries.get(rows.series_id[i]);
    if (!list) {
      list = [];
      bySeries.set(rows.series_id[i], list);
    }
    list.push(i);
  }
  for (const list of bySeries.values())
    list.sort((a, b) => rows.ts[a] - rows.ts[b] || rows.av[a] - rows.av[b]);
  const tails = origins.map(({ series_id, origin, lookbackStart }) => {
    const list = bySeries.get(series_id);
    if (!list || Number.isNaN(lookbackStart)) return null;
    // The last row whose timestamp is <= the origin.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (rows.ts[list[mid]] <= origin) lo = mid + 1;
      else hi = mid;
    }
    const ts: number[] = [];
    const values: number[] = [];
    for (let k = lo - 1; k >= 0; k--) {
      const i = list[k];
      const t = rows.ts[i];
      if (t < lookbackStart) break;
      if (rows.av[i] > origin || rows.sup[i] <= origin) continue;
      served[i] = 1;
      if (ts.length < maxTail && ts[ts.length - 1] !== t) {
        ts.push(t);
        values.push(rows.value[i]);
      }
    }
    if (ts.length === 0) return null;
    return { ts: ts.reverse(), values: values.reverse() };
  });
  return { tails, served };
}

/** The per-origin targets (series_id, origin, step, value) of compact target rows. */
export function compactTargets(
  rows: { series_id: string[]; step_index: number[]; value: number[] },
  origins: readonly { series_id: string; origin: string; origin_index: number; horizon: number }[],
): { series_id: string[]; origin: string[]; step: number[]; value: number[] } {
  const byKey = new Map<string, number>();
  for (let i = 0; i < rows.series_id.length; i++) byKey.set(`${rows.series_id[i]}|${rows.step_index[i]}`, i);
  const out = {
    series_id: [] as string[],
    origin: [] as string[],
    step: [] as number[],
    value: [] as number[],
  };
  for (const o of origins) {
    for (let k = 1; k <= o.horizon; k++) {
      const i = byKey.get(`${o.series_id}|${o.origin_index + k}`);
      if (i === undefined) continue;
      out.series_id.push(o.series_id);
      out.origin.push(o.origin);
      out.step.push(k);
      out.value.push(rows.value[i]);
    }
  }
  return out;
}
