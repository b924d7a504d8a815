import { type Micros, microsToIso, periodLabel } from '@asof/calendar';

const LIMIT = 1_000_000;

/**
 * ISO text and period labels of instants, memoised: series share their timestamps (every BD series has the
 * same dates, every monthly one the same month ends), so a split of millions of rows has a few thousand
 * distinct instants. Bounded: cleared when it grows past a million entries.
 */
export class LabelCache {
  private readonly iso = new Map<number, string>();
  private readonly labels = new Map<string, Map<number, string>>();

  isoOf(us: Micros): string {
    let text = this.iso.get(us);
    if (text === undefined) {
      if (this.iso.size >= LIMIT) this.iso.clear();
      text = microsToIso(us);
      this.iso.set(us, text);
    }
    return text;
  }

  /** periodLabel of `us` for a series of `frequency` (fiscal: an annual series whose year ends before December). */
  labelOf(us: Micros, frequency: string, fiscal: boolean): string {
    const key = fiscal ? `${frequency}/fy` : frequency;
    let byTime = this.labels.get(key);
    if (!byTime) {
      byTime = new Map();
      this.labels.set(key, byTime);
    }
    let label = byTime.get(us);
    if (label === undefined) {
      if (byTime.size >= LIMIT) byTime.clear();
      label = periodLabel(us, frequency, fiscal ? 'non-calendar' : null);
      byTime.set(us, label);
    }
    return label;
  }
}
