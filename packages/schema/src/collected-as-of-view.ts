import type { CollectingSink } from './atomic-sink.ts';

/**
 * The as-of view at `t` of what a CollectingSink holds, computed independently of the source's rows (for tests of every source):
 * per (series_id, timestamp) the row with the greatest available_at <= t; a withdrawal there means no value.
 * Returns series_id → timestamp → value.
 */
export function asOfView(sink: CollectingSink, t: number): Map<string, Map<number, number>> {
  const best = new Map<string, { at: number; value: number | null }>();
  const consider = (series: string, ts: number, at: number, value: number | null) => {
    if (at > t) return;
    const key = `${series}\u0000${ts}`;
    const prev = best.get(key);
    if (prev !== undefined && prev.at === at)
      throw new Error(`two rows of ${series} ${ts} at one instant ${at}`);
    if (prev === undefined || prev.at < at) best.set(key, { at, value });
  };
  for (const o of sink.observations) consider(o.series_id, o.timestamp, o.available_at, o.value);
  for (const w of sink.withdrawals) consider(w.series_id, w.timestamp, w.available_at, null);
  const out = new Map<string, Map<number, number>>();
  for (const [key, { value }] of best) {
    if (value === null) continue;
    const [series, ts] = key.split('\u0000');
    let m = out.get(series);
    if (m === undefined) {
      m = new Map();
      out.set(series, m);
    }
    m.set(Number(ts), value);
  }
  return out;
}
