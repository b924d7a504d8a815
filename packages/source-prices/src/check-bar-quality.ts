import { dayNumberToIso, isoDayNumber, isoWeekday, usNonTradingReason } from '@asof/calendar';
import { InputError } from '@asof/schema';
import type { PriceBar, SplitEvent } from './price-types.ts';

/** Bar-level problems. Each is an error or a flagged issue (never silently kept). */
export const BAR_ISSUE_CODES = [
  'NON_TRADING_DAY',
  'DUPLICATE_DATE',
  'NON_POSITIVE_PRICE',
  'HIGH_LT_LOW',
  'OHLC_OUTSIDE_RANGE',
  'NEGATIVE_VOLUME',
  'EMPTY_BAR',
] as const;
export type BarIssueCode = (typeof BAR_ISSUE_CODES)[number];

/** `error` throws; `drop` leaves the bar out and lists it; `keep` keeps the bar and lists it. */
export type QualityAction = 'error' | 'drop' | 'keep';

export const DEFAULT_QUALITY_POLICY: Record<BarIssueCode, QualityAction> = {
  NON_TRADING_DAY: 'drop',
  DUPLICATE_DATE: 'drop',
  NON_POSITIVE_PRICE: 'drop',
  HIGH_LT_LOW: 'drop',
  // Vendors' rounding of adjusted prices puts open/close a hair outside [low, high] now and then.
  OHLC_OUTSIDE_RANGE: 'keep',
  NEGATIVE_VOLUME: 'drop',
  EMPTY_BAR: 'drop',
};

/** Which days bars may fall on: US exchange sessions, any weekday (non-US exchanges), or every day (crypto). */
export type BarCalendar = 'us' | 'weekdays' | 'all_days';

export interface BarQualityOptions {
  calendar?: BarCalendar;
  /** Overrides per issue, or one action for all (e.g. `'error'` for a strict build). */
  policy?: Partial<Record<BarIssueCode, QualityAction>> | QualityAction;
  /** Splits, so that a split day's jump is not reported as an extreme return. */
  splits?: SplitEvent[];
  /** |daily return| above this without a split is extreme (default 0.5, i.e. 50%). */
  extremeReturn?: number;
  /** Identical closes on at least this many consecutive bars form a stale run (default 5). */
  staleRunLength?: number;
  /** Volume above this multiple of the median of the previous 20 volumes is a spike (default 10). */
  volumeSpikeFactor?: number;
  /** Named in messages (file name, symbol). */
  where?: string;
}

export interface BarIssue {
  code: BarIssueCode;
  date: string;
  row: number;
  action: 'drop' | 'keep';
  message: string;
}

/** The per-instrument data-quality report for the build summary (cf. Qlib's data health check). */
export interface BarQualityReport {
  bars_in: number;
  bars_kept: number;
  first_date: string | null;
  last_date: string | null;
  issues: BarIssue[];
  issue_counts: Partial<Record<BarIssueCode, number>>;
  /** Trading days (per the calendar) between the first and last bar with no bar. */
  missing_days: number;
  /** The longest runs of missing days (at most 10), longest first. */
  gaps: { from: string; to: string; days: number }[];
  stale_runs: { from: string; to: string; bars: number; close: number }[];
  extreme_returns: { date: string; return: number }[];
  volume_spikes: { date: string; volume: number; median_prior_20: number }[];
  out_of_order: boolean;
}

export interface BarQualityResult {
  bars: PriceBar[];
  report: BarQualityReport;
}

function isSessionDay(date: string, calendar: BarCalendar): string | null {
  if (calendar === 'all_days') return null;
  if (calendar === 'us') return usNonTradingReason(date);
  const wd = isoWeekday(date);
  return wd === 0 ? 'Sunday' : wd === 6 ? 'Saturday' : null;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Checks bars and returns the ones to keep (sorted by date) plus a quality report. Bar-level problems
 * follow the policy (error / drop / keep, always listed); series-level findings (gaps, stale runs, extreme
 * returns, volume spikes) are reported only.
 */
export function checkBarQuality(input: PriceBar[], options: BarQualityOptions = {}): BarQualityResult {
  const calendar = options.calendar ?? 'us';
  const policy: Record<BarIssueCode, QualityAction> =
    typeof options.policy === 'string'
      ? (Object.fromEntries(BAR_ISSUE_CODES.map((c) => [c, options.policy])) as Record<
          BarIssueCode,
          QualityAction
        >)
      : { ...DEFAULT_QUALITY_POLICY, ...(options.policy ?? {}) };
  const where = options.where ?? 'bars';
  let outOfOrder = false;
  for (let i = 1; i < input.length; i++) {
    if (input[i].date < input[i - 1].date) {
      outOfOrder = true;
      break;
    }
  }
  const sorted = outOfOrder
    ? [...input].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.row - b.row))
    : input;
  const issues: BarIssue[] = [];
  const kept: PriceBar[] = [];
  let prevDate = '';
  for (const bar of sorted) {
    const problems: [BarIssueCode, string][] = [];
    const { open, high, low, close, volume } = bar;
    if (open === null && high === null && low === null && close === null && volume === null) {
      problems.push(['EMPTY_BAR', 'every field is missing']);
    }
    const reason = isSessionDay(bar.date, calendar);
    if (reason !== null) problems.push(['NON_TRADING_DAY', `${bar.date} is not a trading day (${reason})`]);
    if (bar.date === prevDate)
      problems.push(['DUPLICATE_DATE', `second bar for ${bar.date}; the first is kept`]);
    for (const [name, v] of [
      ['open', open],
      ['high', high],
      ['low', low],
      ['close', close],
    ] as const) {
      if (v !== null && !(v > 0))
        problems.push(['NON_POSITIVE_PRICE', `${name} is ${v}; prices must be positive`]);
    }
    if (high !== null && low !== null && high < low)
      problems.push(['HIGH_LT_LOW', `high ${high} < low ${low}`]);
    else if (high !== null && low !== null) {
      const tol = 1e-9 * Math.abs(high);
      for (const [name, v] of [
        ['open', open],
        ['close', close],
      ] as const) {
        if (v !== null && (v > high + tol || v < low - tol)) {
          problems.push(['OHLC_OUTSIDE_RANGE', `${name} ${v} outside [low ${low}, high ${high}]`]);
        }
      }
    }
    if (volume !== null && volume < 0) problems.push(['NEGATIVE_VOLUME', `volume is ${volume}`]);
    let drop = false;
    for (const [code, detail] of problems) {
      const action = policy[code];
      const message = `${where} row ${bar.row} (${bar.date}): ${detail}`;
      if (action === 'error') {
        throw new InputError(
          `BAR_${code}`,
          `${message}. Fix the raw file, or set the quality policy for ${code} to 'drop' or 'keep' to flag it instead`,
          { context: { where, row: bar.row, date: bar.date, code } },
        );
      }
      issues.push({ code, date: bar.date, row: bar.row, action, message });
      if (action === 'drop') drop = true;
    }
    if (bar.date !== prevDate && !drop) prevDate = bar.date;
    if (!drop) kept.push(bar);
  }

  const issueCounts: Partial<Record<BarIssueCode, number>> = {};
  for (const i of issues) issueCounts[i.code] = (issueCounts[i.code] ?? 0) + 1;

  // Gaps: expected session days between consecutive kept bars.
  const gapsAll: { from: string; to: string; days: number }[] = [];
  let missingDays = 0;
  const dayNumbers = kept.map((k) => isoDayNumber(k.date));
  for (let i = 1; i < kept.length; i++) {
    const a = dayNumbers[i - 1];
    const b = dayNumbers[i];
    if (b - a <= 1) continue;
    let first = '';
    let last = '';
    let n = 0;
    for (let d = a + 1; d < b; d++) {
      const date = dayNumberToIso(d);
      if (isSessionDay(date, calendar) !== null) continue;
      if (n === 0) first = date;
      last = date;
      n++;
    }
    if (n > 0) {
      missingDays += n;
      gapsAll.push({ from: first, to: last, days: n });
    }
  }
  gapsAll.sort((x, y) => y.days - x.days || (x.from < y.from ? -1 : 1));

  const staleLen = options.staleRunLength ?? 5;
  const staleRuns: BarQualityReport['stale_runs'] = [];
  let runStart = 0;
  for (let i = 1; i <= kept.length; i++) {
    const same = i < kept.length && kept[i].close !== null && kept[i].close === kept[runStart].close;
    if (same) continue;
    const len = i - runStart;
    if (len >= staleLen && kept[runStart].close !== null) {
      staleRuns.push({
        from: kept[runStart].date,
        to: kept[i - 1].date,
        bars: len,
        close: kept[runStart].close!,
      });
    }
    runStart = i;
  }

  const splitDates = (options.splits ?? []).map((s) => s.exDate).sort();
  const limit = options.extremeReturn ?? 0.5;
  const extreme: BarQualityReport['extreme_returns'] = [];
  let prev: PriceBar | null = null;
  for (const bar of kept) {
    if (bar.close === null || !(bar.close > 0)) continue;
    if (prev?.close) {
      const r = bar.close / prev.close - 1;
      const p: PriceBar = prev;
      const splitBetween = splitDates.some((d) => d > p.date && d <= bar.date);
      if (Math.abs(r) > limit && !splitBetween) extreme.push({ date: bar.date, return: r });
    }
    prev = bar;
  }

  const factor = options.volumeSpikeFactor ?? 10;
  const spikes: BarQualityReport['volume_spikes'] = [];
  const window: number[] = [];
  for (const bar of kept) {
    const v = bar.volume;
    if (v === null) continue;
    if (window.length >= 5 && v > 0) {
      const med = median(window);
      if (med > 0 && v > factor * med) spikes.push({ date: bar.date, volume: v, median_prior_20: med });
    }
    if (v > 0) {
      window.push(v);
      if (window.length > 20) window.shift();
    }
  }

  return {
    bars: kept,
    report: {
      bars_in: input.length,
      bars_kept: kept.length,
      first_date: kept[0]?.date ?? null,
      last_date: kept.at(-1)?.date ?? null,
      issues,
      issue_counts: issueCounts,
      missing_days: missingDays,
      gaps: gapsAll.slice(0, 10),
      stale_runs: staleRuns,
      extreme_returns: extreme,
      volume_spikes: spikes,
      out_of_order: outOfOrder,
    },
  };
}
