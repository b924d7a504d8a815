import { type Micros, zonedMicros } from '@asof/calendar';
import type { AtomicSink, ObservationRow } from '@asof/schema';
import { normal, uniform } from './counter-prng.ts';
import { addMonths, isoDate, lastDayOfMonth, monthEndMicros } from './release-rules.ts';

const STREAM_FUNDAMENTALS = 2_000_000;

const ITEMS = [
  { key: 'revenue', detail: 'Revenue', unit: 'USD', duration: true },
  { key: 'net-income', detail: 'Net Income', unit: 'USD', duration: true },
  { key: 'eps-basic', detail: 'EPS Basic', unit: 'USD/shares', duration: true },
  { key: 'eps-diluted', detail: 'EPS Diluted', unit: 'USD/shares', duration: true },
  { key: 'total-assets', detail: 'Total Assets', unit: 'USD', duration: false },
  { key: 'total-liabilities', detail: 'Total Liabilities', unit: 'USD', duration: false },
  { key: 'stockholders-equity', detail: 'Stockholders Equity', unit: 'USD', duration: false },
  { key: 'operating-cash-flow', detail: 'Operating Cash Flow', unit: 'USD', duration: true },
] as const;

export interface SyntheticFundamentalsConfig {
  seed: number;
  start: string;
  end: string;
  companies: number;
}

export function syntheticCompanyId(c: number): string {
  return `C${String(c).padStart(4, '0')}`;
}

interface Filing {
  accn: string;
  availableAt: Micros;
  form: '10-Q' | '10-K' | '10-K/A';
}

/** A filing `lagDays` after `date` (moved off weekends), accepted between 16:00 and 17:29 New York. */
function fileAfter(
  seed: number,
  stream: number,
  step: number,
  y: number,
  m: number,
  d: number,
  lagDays: number,
  accn: string,
  form: Filing['form'],
): Filing {
  const t = new Date(Date.UTC(y, m - 1, d + lagDays));
  while (t.getUTCDay() === 0 || t.getUTCDay() === 6) t.setUTCDate(t.getUTCDate() + 1);
  const minute = Math.floor(uniform(seed, stream, step, 20) * 90);
  const hh = 16 + Math.floor(minute / 60);
  const mm = minute % 60;
  const date = isoDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
  // SPEC §4: available_at = max(acceptance as New York wall time, filing date 07:30 New York).
  const accepted = zonedMicros(
    date,
    `${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}`,
    'America/New_York',
  );
  const floor = zonedMicros(date, '07:30', 'America/New_York');
  return { accn, availableAt: Math.max(accepted, floor), form };
}

/**
 * Quarterly fundamentals for synthetic companies with filing lags (10-Q 35–44 days, 10-K 60–74 days after
 * the fiscal period end), comparatives in the next filing that sometimes restate a value, a 10-K/A for
 * some companies, and a 2:1 split that restates earlier EPS in the next 10-K. Fiscal years end in
 * Dec/Sep/Jun/Mar by company, and timestamps are fiscal period ends (SPEC §1).
 */
export function generateSyntheticFundamentals(config: SyntheticFundamentalsConfig, sink: AtomicSink): void {
  const [sy, sm] = config.start.split('-').map(Number);
  const [ey, em] = config.end.split('-').map(Number);
  for (let c = 0; c < config.companies; c++) {
    const cid = syntheticCompanyId(c);
    const s = STREAM_FUNDAMENTALS + c * 64;
    const fye = [12, 9, 6, 3][c % 4];
    for (const item of ITEMS) {
      sink.addSeries({
        series_id: `syn:edgar:${cid}:${item.key}:Q`,
        source: 'synthetic',
        source_key: `fundamentals/${c}/${item.key}`,
        title: `Synthetic company ${cid} ${item.detail} (quarterly)`,
        unit: item.unit,
        frequency: 'Q',
        scope: 'Individual',
        category: 'Fundamentals',
        detail_category: item.detail,
        entity_id: `syn:${cid}`,
        entity_name: `Synthetic Company ${cid}`,
        currency: 'USD',
        seasonal_adjustment: null,
        fiscal_year_end: `--${String(fye).padStart(2, '0')}-${String(lastDayOfMonth(2001, fye)).padStart(2, '0')}`,
        is_synthetic: true,
        universe_kind: 'point_in_time',
      });
    }
    // Fiscal quarter ends: months congruent to the fiscal year end month mod 3.
    let [y, m] = [sy, sm];
    while ((m - fye + 12) % 3 !== 0) [y, m] = addMonths(y, m, 1);
    let revenue = 5e8 * (1 + 20 * uniform(config.seed, s, 0, 1));
    let shares = 1e8 * (1 + 9 * uniform(config.seed, s, 0, 2));
    const splitQuarter = c % 5 === 0 ? 20 + Math.floor(uniform(config.seed, s, 0, 3) * 40) : -1;
    const periods: { y: number; m: number; values: number[]; filing: Filing; isQ4: boolean }[] = [];
    for (let q = 0; y < ey || (y === ey && m <= em); q++) {
      const isQ4 = m === fye;
      revenue *= Math.exp(0.015 + 0.05 * normal(config.seed, s, q, 1));
      if (q === splitQuarter) shares *= 2;
      const margin = 0.1 + 0.08 * normal(config.seed, s, q, 2);
      const ni = revenue * margin;
      const assets = revenue * 4 * (1 + 0.1 * normal(config.seed, s, q, 3));
      const liabilities = assets * (0.5 + 0.2 * uniform(config.seed, s, q, 4));
      const ocf = ni * 1.2 + revenue * 0.03 * normal(config.seed, s, q, 5);
      const values = [
        revenue,
        ni,
        ni / shares,
        ni / (shares * 1.02),
        assets,
        liabilities,
        assets - liabilities,
        ocf,
      ].map((v, k) => (k === 2 || k === 3 ? Math.round(v * 100) / 100 : Math.round(v / 1000) * 1000));
      const d = lastDayOfMonth(y, m);
      const lag = isQ4
        ? 60 + Math.floor(uniform(config.seed, s, q, 6) * 15)
        : 35 + Math.floor(uniform(config.seed, s, q, 6) * 10);
      const filing = fileAfter(config.seed, s, q, y, m, d, lag, `syn-${cid}-${q}`, isQ4 ? '10-K' : '10-Q');
      periods.push({ y, m, values, filing, isQ4 });
      [y, m] = addMonths(y, m, 3);
    }
    const emit = (p: (typeof periods)[number], k: number, value: number, filing: Filing) => {
      const item = ITEMS[k];
      const [py, pm] = addMonths(p.y, p.m, -2);
      const row: ObservationRow = {
        series_id: `syn:edgar:${cid}:${item.key}:Q`,
        timestamp: monthEndMicros(p.y, p.m),
        period_start: item.duration ? zonedMicros(isoDate(py, pm, 1), '00:00', 'America/New_York') : null,
        available_at: filing.availableAt,
        value,
        available_at_basis: 'filing',
        source_ref: `${filing.form} ${filing.accn}`,
      };
      sink.addObservation(row);
    };
    // The first 10-K after a 2:1 split re-expresses earlier EPS per new share (emitted below); its
    // comparative EPS rows come from that re-expression, not from the loop here.
    const splitTenK = splitQuarter >= 0 ? periods.slice(splitQuarter).find((p) => p.isQ4) : undefined;
    for (let q = 0; q < periods.length; q++) {
      const p = periods[q];
      for (let k = 0; k < ITEMS.length; k++) emit(p, k, p.values[k], p.filing);
      const next = periods[q + 1];
      if (!next) continue;
      // Comparatives: the next filing repeats last period's values, occasionally restated by 1–5%.
      // Unchanged repeats are emitted on purpose: the build must not count them as revisions.
      for (let k = 0; k < ITEMS.length; k++) {
        if ((k === 2 || k === 3) && next === splitTenK && q < splitQuarter) continue;
        const u = uniform(config.seed, s + 1, q, k);
        if (u < 0.08) {
          const factor =
            1 +
            (uniform(config.seed, s + 2, q, k) < 0.5 ? -1 : 1) *
              (0.01 + 0.04 * uniform(config.seed, s + 3, q, k));
          const v =
            k === 2 || k === 3
              ? Math.round(p.values[k] * factor * 100) / 100
              : Math.round((p.values[k] * factor) / 1000) * 1000;
          emit(p, k, v, next.filing);
          p.values[k] = v;
        } else if (u < 0.3) {
          emit(p, k, p.values[k], next.filing);
        }
      }
    }
    // A 10-K/A two months after every 7th company's first 10-K restates that year's revenue.
    if (c % 7 === 3) {
      const q4 = periods.find((p) => p.isQ4 && p.y >= sy + 1);
      if (q4) {
        const amend = fileAfter(
          config.seed,
          s + 4,
          0,
          q4.y,
          q4.m,
          lastDayOfMonth(q4.y, q4.m),
          160,
          `syn-${cid}-amend`,
          '10-K/A',
        );
        emit(q4, 0, Math.round((q4.values[0] * 0.97) / 1000) * 1000, amend);
      }
    }
    // After a 2:1 split the next 10-K re-expresses the eight earlier quarters' EPS per new share.
    if (splitQuarter >= 0 && splitQuarter < periods.length) {
      const tenK = splitTenK;
      if (tenK) {
        for (let q = Math.max(0, splitQuarter - 8); q < splitQuarter; q++) {
          const p = periods[q];
          if (p.filing.availableAt >= tenK.filing.availableAt) continue;
          for (const k of [2, 3]) emit(p, k, Math.round((p.values[k] / 2) * 100) / 100, tenK.filing);
        }
      }
    }
  }
}
