import type { EvaluationPanel } from './build-evaluation-panel.ts';
import { instantOf } from './parse-instant.ts';
import { quoteText } from './quote-text.ts';

/** Why a forecast's origin text names no origin of its series: an error code and the message detail. */
export interface OriginMiss {
  code: 'FORECAST_BAD_ORIGIN' | 'FORECAST_UNKNOWN_ORIGIN' | 'FORECAST_AMBIGUOUS_ORIGIN';
  detail: string;
  /** The nearest valid origins of the series, as `label (instant)` or the instant. */
  nearest: string[];
}

const MONTH_LABEL = /^(\d{4})-(\d{2})$/;
const QUARTER_LABEL = /^(\d{4})Q([1-4])$/;
const YEAR_LABEL = /^(?:FY)?(\d{4})$/;

function utcMs(year: number, monthIndex: number, day: number): number {
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0…99 to 1900…1999.
  at.setUTCFullYear(year, monthIndex, day);
  return at.getTime();
}

/**
 * The end of the period a label names (`2019-12` → the end of December 2019, `2019Q4`, `FY2019`/`2019` → the
 * end of the year, `2020-03-04` → that day), for finding the nearest origins of an unmatched one; null when
 * the text is neither a label form nor an instant. A fiscal year is taken as the calendar year: it only
 * orders the candidates.
 */
export function labelEndTime(text: string): number | null {
  let m = MONTH_LABEL.exec(text);
  if (m) {
    const month = Number(m[2]);
    return month >= 1 && month <= 12 ? utcMs(Number(m[1]), month, 1) - 1 : null;
  }
  m = QUARTER_LABEL.exec(text);
  if (m) return utcMs(Number(m[1]), 3 * Number(m[2]), 1) - 1;
  m = YEAR_LABEL.exec(text);
  if (m) return utcMs(Number(m[1]) + 1, 0, 1) - 1;
  const ms = instantOf(text);
  return typeof ms === 'number' ? ms : null;
}

/**
 * Resolves a forecast's origin text to a panel origin of its series: the origin's period label (the
 * split's origin_label: `2019-12`, `2019Q4`, `FY2019`, `2020-03-04`) or its instant (as instantOf reads
 * it; `2024-01-02` and `2024-01-02T00:00:00Z` are the same). Text that names one origin by its label and
 * another by its instant is ambiguous (only a bare date can be both) and is refused.
 */
export class OriginMatcher {
  /** `${series}|${label}` → origin, or -1 when two origins of the series share the label. */
  private labels: Map<string, number> | null = null;
  /** Per distinct origin text (dictionary code): its instant, or null when it is not one. */
  private readonly instants = new Map<number, number | null>();

  constructor(private readonly panel: EvaluationPanel) {}

  private labelIndex(): Map<string, number> {
    if (this.labels) return this.labels;
    const index = new Map<string, number>();
    const labels = this.panel.originLabel;
    if (labels) {
      for (let o = 0; o < labels.length; o++) {
        const label = labels[o];
        if (label === undefined) continue;
        const key = `${this.panel.originSeries[o]}|${label}`;
        index.set(key, index.has(key) ? -1 : o);
      }
    }
    this.labels = index;
    return index;
  }

  private instantOfCode(code: number, text: string): number | null {
    let ms = this.instants.get(code);
    if (ms === undefined) {
      const parsed = instantOf(text);
      ms = typeof parsed === 'number' ? parsed : null;
      this.instants.set(code, ms);
    }
    return ms;
  }

  /** The origin of series `s` that `text` (dictionary code `code`) names, or why there is none. */
  find(s: number, code: number, text: string): number | OriginMiss {
    const panel = this.panel;
    const byLabel = panel.originLabel ? this.labelIndex().get(`${s}|${text}`) : undefined;
    const ms = this.instantOfCode(code, text);
    const byInstant = ms === null ? undefined : panel.originKey.get(`${s}|${ms}`);
    const seriesId = panel.seriesIds[s];
    if (byLabel === -1) {
      const twins = this.originsOf(s).filter((o) => panel.originLabel?.[o] === text);
      return {
        code: 'FORECAST_AMBIGUOUS_ORIGIN',
        detail: `origin ${quoteText(text)} is the period label of ${twins.length} origins of ${seriesId} (${twins.map((o) => panel.originIso[o]).join(', ')}); write the origin's instant`,
        nearest: twins.map((o) => this.describe(o)),
      };
    }
    if (byLabel !== undefined && byInstant !== undefined && byLabel !== byInstant) {
      return {
        code: 'FORECAST_AMBIGUOUS_ORIGIN',
        detail: `origin ${quoteText(text)} is the period label of ${seriesId}'s origin ${this.describe(byLabel)} and the instant of its origin ${this.describe(byInstant)}; write the full instant (e.g. ${new Date(panel.originTime[byInstant]).toISOString()})`,
        nearest: [this.describe(byLabel), this.describe(byInstant)],
      };
    }
    const found = byLabel ?? byInstant;
    if (found !== undefined) return found;
    const approx = labelEndTime(text);
    const nearest = this.nearest(s, approx);
    if (approx === null) {
      const parsed = instantOf(text);
      const reason = typeof parsed === 'number' ? 'is not an origin' : parsed.reason;
      const range = nearest.length ? `; ${seriesId}'s origins run from ${nearest.join(' to ')}` : '';
      return {
        code: 'FORECAST_BAD_ORIGIN',
        detail: `origin ${quoteText(text)} ${reason}; write the split's origin as its period label (2019-12, 2019Q4, FY2019, 2020-03-04) or its instant (e.g. 2024-01-31 or 2024-01-31T00:00:00Z)${range}`,
        nearest,
      };
    }
    const hint = nearest.length
      ? `nearest origins of ${seriesId}: ${nearest.join(', ')}`
      : `${seriesId} has no origin in the split`;
    return {
      code: 'FORECAST_UNKNOWN_ORIGIN',
      detail: `origin ${quoteText(text)} is not an origin of ${seriesId} in the split (neither an origin's period label nor its instant); ${hint}`,
      nearest,
    };
  }

  /** An origin as its label and instant (`2019-12 (2020-01-01T04:59:59.999Z)`), or the instant alone. */
  describe(o: number): string {
    const label = this.panel.originLabel?.[o];
    return label === undefined ? this.panel.originIso[o] : `${label} (${this.panel.originIso[o]})`;
  }

  private originsOf(s: number): number[] {
    const out: number[] = [];
    for (let o = this.panel.seriesOriginStart[s]; o < this.panel.seriesOriginStart[s + 1]; o++) out.push(o);
    return out;
  }

  /**
   * The nearest origins of series s to `ms`: the last one before it and the first one after it (or the
   * two nearest on the one side there is); without a time, the series' first and last origins.
   */
  private nearest(s: number, ms: number | null): string[] {
    const a = this.panel.seriesOriginStart[s];
    const b = this.panel.seriesOriginStart[s + 1];
    if (b === a) return [];
    let picks: number[];
    if (ms === null) picks = b - a === 1 ? [a] : [a, b - 1];
    else {
      // First origin at or after ms (origins of a series are in time order).
      let lo = a;
      let hi = b;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.panel.originTime[mid] < ms) lo = mid + 1;
        else hi = mid;
      }
      if (lo === a) picks = [a, a + 1];
      else if (lo === b) picks = [b - 2, b - 1];
      else picks = [lo - 1, lo];
      picks = picks.filter((o) => o >= a && o < b);
    }
    return picks.map((o) => this.describe(o));
  }
}
