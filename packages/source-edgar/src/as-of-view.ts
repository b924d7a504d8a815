import type { Micros, ObservationRow } from '@asof/schema';

/**
 * SPEC §1 as-of view over emitted rows: per (series_id, timestamp), the row with the greatest
 * available_at ≤ t. For checks and small tools; the build does this in SQL.
 */
export function asOfView(rows: readonly ObservationRow[], t: Micros): ObservationRow[] {
  const best = new Map<string, ObservationRow>();
  for (const r of rows) {
    if (r.available_at > t) continue;
    const key = `${r.series_id}|${r.timestamp}`;
    const prev = best.get(key);
    if (!prev || r.available_at > prev.available_at) best.set(key, r);
  }
  return [...best.values()];
}

/** The as-of value of one (series, timestamp), or undefined when nothing was public by t. */
export function asOfValue(
  rows: readonly ObservationRow[],
  seriesId: string,
  timestamp: Micros,
  t: Micros,
): ObservationRow | undefined {
  let best: ObservationRow | undefined;
  for (const r of rows) {
    if (r.series_id !== seriesId || r.timestamp !== timestamp || r.available_at > t) continue;
    if (!best || r.available_at > best.available_at) best = r;
  }
  return best;
}
