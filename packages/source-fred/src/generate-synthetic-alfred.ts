import { normal, uniform } from '@asof/prng';
import type { AtomicSink, Frequency } from '@asof/schema';
import { addDays, endOfMonth, weekday } from './fred-dates.ts';
import type { FredObservation } from './fred-payload.ts';
import { type FredIngestSummary, type FredRawFile, ingestFredRawFiles } from './ingest-fred-raw-dir.ts';
import type { FredMapOptions, FredTaxonomyPlacement } from './map-fred-to-atomic.ts';
import { RELEASE_TIMES } from './release-times.ts';

interface SyntheticTemplate {
  id: string;
  title: string;
  frequency: 'M' | 'Q';
  units: string;
  sa: string;
  releaseId: number;
  placement: FredTaxonomyPlacement;
  level: number;
  /** Drift and volatility per period, relative (log) or absolute (level series like rates). */
  drift: number;
  vol: number;
  log: boolean;
  decimals: number;
  /** First-release error and revision size, as fractions of `vol`. */
  noise: number;
}

const macro = (detail: string) => ({
  scope: 'Country',
  category: 'Macro Indicators',
  detail_category: detail,
});

/** Twenty macro series shaped like their FRED namesakes (levels, growth, revisions), on real release ids. */
export const SYNTHETIC_ALFRED_TEMPLATES: readonly SyntheticTemplate[] = [
  {
    id: 'SYNCPI',
    title: 'Synthetic CPI, all items',
    frequency: 'M',
    units: 'Index 1982-1984=100',
    sa: 'SA',
    releaseId: 10,
    placement: macro('Inflation'),
    level: 170,
    drift: 0.002,
    vol: 0.002,
    log: true,
    decimals: 3,
    noise: 0.3,
  },
  {
    id: 'SYNCORECPI',
    title: 'Synthetic core CPI',
    frequency: 'M',
    units: 'Index 1982-1984=100',
    sa: 'SA',
    releaseId: 10,
    placement: macro('Inflation'),
    level: 180,
    drift: 0.0018,
    vol: 0.001,
    log: true,
    decimals: 3,
    noise: 0.3,
  },
  {
    id: 'SYNPAYEMS',
    title: 'Synthetic nonfarm payrolls',
    frequency: 'M',
    units: 'Thousands of Persons',
    sa: 'SA',
    releaseId: 50,
    placement: macro('Labor'),
    level: 130000,
    drift: 0.001,
    vol: 0.0015,
    log: true,
    decimals: 0,
    noise: 0.8,
  },
  {
    id: 'SYNUNRATE',
    title: 'Synthetic unemployment rate',
    frequency: 'M',
    units: 'Percent',
    sa: 'SA',
    releaseId: 50,
    placement: macro('Labor'),
    level: 5,
    drift: 0,
    vol: 0.15,
    log: false,
    decimals: 1,
    noise: 0.4,
  },
  {
    id: 'SYNCIVPART',
    title: 'Synthetic participation rate',
    frequency: 'M',
    units: 'Percent',
    sa: 'SA',
    releaseId: 50,
    placement: macro('Labor'),
    level: 66,
    drift: -0.01,
    vol: 0.1,
    log: false,
    decimals: 1,
    noise: 0.5,
  },
  {
    id: 'SYNGDP',
    title: 'Synthetic nominal GDP',
    frequency: 'Q',
    units: 'Billions of Dollars',
    sa: 'SAAR',
    releaseId: 53,
    placement: macro('Gdp'),
    level: 10000,
    drift: 0.012,
    vol: 0.006,
    log: true,
    decimals: 3,
    noise: 0.5,
  },
  {
    id: 'SYNGDPC1',
    title: 'Synthetic real GDP',
    frequency: 'Q',
    units: 'Billions of Chained 2017 Dollars',
    sa: 'SAAR',
    releaseId: 53,
    placement: macro('Gdp'),
    level: 13000,
    drift: 0.006,
    vol: 0.006,
    log: true,
    decimals: 3,
    noise: 0.5,
  },
  {
    id: 'SYNPCE',
    title: 'Synthetic personal consumption expenditures',
    frequency: 'M',
    units: 'Billions of Dollars',
    sa: 'SAAR',
    releaseId: 54,
    placement: macro('Spending'),
    level: 7000,
    drift: 0.004,
    vol: 0.003,
    log: true,
    decimals: 1,
    noise: 0.5,
  },
  {
    id: 'SYNPI',
    title: 'Synthetic personal income',
    frequency: 'M',
    units: 'Billions of Dollars',
    sa: 'SAAR',
    releaseId: 54,
    placement: macro('Income'),
    level: 8500,
    drift: 0.004,
    vol: 0.003,
    log: true,
    decimals: 1,
    noise: 0.5,
  },
  {
    id: 'SYNPSAVERT',
    title: 'Synthetic personal saving rate',
    frequency: 'M',
    units: 'Percent',
    sa: 'SAAR',
    releaseId: 54,
    placement: macro('Saving'),
    level: 5,
    drift: 0,
    vol: 0.3,
    log: false,
    decimals: 1,
    noise: 0.6,
  },
  {
    id: 'SYNINDPRO',
    title: 'Synthetic industrial production',
    frequency: 'M',
    units: 'Index 2017=100',
    sa: 'SA',
    releaseId: 13,
    placement: macro('Activity'),
    level: 90,
    drift: 0.001,
    vol: 0.006,
    log: true,
    decimals: 4,
    noise: 0.5,
  },
  {
    id: 'SYNTCU',
    title: 'Synthetic capacity utilization',
    frequency: 'M',
    units: 'Percent of Capacity',
    sa: 'SA',
    releaseId: 13,
    placement: macro('Activity'),
    level: 78,
    drift: 0,
    vol: 0.4,
    log: false,
    decimals: 4,
    noise: 0.5,
  },
  {
    id: 'SYNM2',
    title: 'Synthetic M2 money stock',
    frequency: 'M',
    units: 'Billions of Dollars',
    sa: 'SA',
    releaseId: 21,
    placement: macro('Money'),
    level: 5000,
    drift: 0.005,
    vol: 0.003,
    log: true,
    decimals: 1,
    noise: 0.3,
  },
  {
    id: 'SYNHOUST',
    title: 'Synthetic housing starts',
    frequency: 'M',
    units: 'Thousands of Units',
    sa: 'SAAR',
    releaseId: 97,
    placement: macro('Housing'),
    level: 1500,
    drift: 0,
    vol: 0.06,
    log: true,
    decimals: 0,
    noise: 0.6,
  },
  {
    id: 'SYNRSAFS',
    title: 'Synthetic retail sales',
    frequency: 'M',
    units: 'Millions of Dollars',
    sa: 'SA',
    releaseId: 9,
    placement: macro('Spending'),
    level: 300000,
    drift: 0.003,
    vol: 0.008,
    log: true,
    decimals: 0,
    noise: 0.6,
  },
  {
    id: 'SYNPPI',
    title: 'Synthetic producer price index',
    frequency: 'M',
    units: 'Index 1982=100',
    sa: 'NSA',
    releaseId: 46,
    placement: macro('Inflation'),
    level: 130,
    drift: 0.002,
    vol: 0.006,
    log: true,
    decimals: 3,
    noise: 0.4,
  },
  {
    id: 'SYNPCEPI',
    title: 'Synthetic PCE price index',
    frequency: 'M',
    units: 'Index 2017=100',
    sa: 'SA',
    releaseId: 54,
    placement: macro('Inflation'),
    level: 75,
    drift: 0.0017,
    vol: 0.0015,
    log: true,
    decimals: 3,
    noise: 0.4,
  },
  {
    id: 'SYNPRODUCT',
    title: 'Synthetic nonfarm labor productivity',
    frequency: 'Q',
    units: 'Index 2017=100',
    sa: 'SA',
    releaseId: 53,
    placement: macro('Productivity'),
    level: 80,
    drift: 0.004,
    vol: 0.005,
    log: true,
    decimals: 3,
    noise: 0.6,
  },
  {
    id: 'SYNCA',
    title: 'Synthetic current account balance',
    frequency: 'Q',
    units: 'Millions of Dollars',
    sa: 'SA',
    releaseId: 53,
    placement: macro('Current Account'),
    level: -100000,
    drift: -500,
    vol: 8000,
    log: false,
    decimals: 0,
    noise: 0.6,
  },
  {
    id: 'SYNEMPIND',
    title: 'Synthetic manufacturing employment',
    frequency: 'M',
    units: 'Thousands of Persons',
    sa: 'SA',
    releaseId: 50,
    placement: macro('Labor By Industry'),
    level: 17000,
    drift: -0.001,
    vol: 0.002,
    log: true,
    decimals: 0,
    noise: 0.8,
  },
];

/** Release day offsets after the period end (days), per release: BLS mid-month, BEA end of month… */
const RELEASE_LAG_DAYS: Record<number, number> = {
  10: 13,
  50: 5,
  53: 27,
  54: 28,
  13: 15,
  21: 20,
  97: 17,
  9: 14,
  46: 12,
};

export interface SyntheticAlfredOptions {
  seed: number;
  /** First date (YYYY-MM-DD): periods start in its month (quarters at the next quarter start). Default 2000-01-01. */
  start?: string;
  /** Last date: only periods ending by then, and only vintages published by then. Default: start + `months`. */
  end?: string;
  /** Months to simulate when `end` is not given. Default 240 (20 years). */
  months?: number;
  /** Number of series (default 20 = every template once; more cycle the templates with ids SYNCPI2, …). */
  count?: number;
  /** Subset of ids. */
  series?: readonly string[];
}

export interface SyntheticAlfred {
  /** Raw files in the layout `ingestFredRawFiles` reads: series, series/release, all-vintage observations, release/dates. */
  files: FredRawFile[];
  /** Taxonomy placement of each synthetic FRED id (they are not in the catalog). */
  mapping: Record<string, FredTaxonomyPlacement>;
  series: string[];
}

function weekdayOnOrAfter(date: string): string {
  let d = date;
  while (weekday(d) === 0 || weekday(d) === 6) d = addDays(d, 1);
  return d;
}

/**
 * Seeded synthetic ALFRED data: each series follows a random walk (log or level); a period's first release
 * is the truth plus noise, the next two releases of its release move it toward the truth, every July
 * release revises the past 12 periods, and about 1 % of first releases are "." (filled at the next release).
 * SYNGDP's first quarter is withdrawn ("." after its values) by the first July release that no longer revises it.
 * Vintage dates are the release calendar; rows are written as ALFRED does (one interval per value).
 */
export function generateSyntheticAlfred(options: SyntheticAlfredOptions): SyntheticAlfred {
  const seed = options.seed | 0;
  const startMonth = `${(options.start ?? '2000-01-01').slice(0, 7)}-01`;
  const end = options.end;
  const months =
    end === undefined
      ? (options.months ?? 240)
      : (Number(end.slice(0, 4)) - Number(startMonth.slice(0, 4))) * 12 +
        (Number(end.slice(5, 7)) - Number(startMonth.slice(5, 7))) +
        1;
  const count = options.count ?? SYNTHETIC_ALFRED_TEMPLATES.length;
  const n = SYNTHETIC_ALFRED_TEMPLATES.length;
  const instances = Array.from({ length: count }, (_, i) => {
    const t = SYNTHETIC_ALFRED_TEMPLATES[i % n];
    const copy = Math.floor(i / n) + 1;
    return {
      t,
      id: copy === 1 ? t.id : `${t.id}${copy}`,
      title: copy === 1 ? t.title : `${t.title} (${copy})`,
      si: i,
    };
  }).filter((x) => options.series === undefined || options.series.includes(x.id));
  const enc = new TextEncoder();
  const files: FredRawFile[] = [];
  const mapping: Record<string, FredTaxonomyPlacement> = {};
  const calendars = new Map<number, Set<string>>();

  // `si` is the series' position in the full list, so a subset reproduces the same series.
  for (const { t, id, title, si } of instances) {
    const step = t.frequency === 'M' ? 1 : 3;
    const periods: string[] = [];
    const [y0, m0] = startMonth.split('-').map(Number);
    const first = step === 3 ? Math.ceil((m0 - 1) / 3) * 3 : m0 - 1;
    for (let k = first; k + step - 1 < m0 - 1 + months; k += step) {
      periods.push(new Date(Date.UTC(y0, k, 1)).toISOString().slice(0, 10));
    }
    // Truth path.
    const truth: number[] = [];
    let x = t.log ? Math.log(t.level) : t.level;
    for (let i = 0; i < periods.length; i++) {
      x += t.drift + t.vol * normal(seed, si, i, 1);
      truth.push(t.log ? Math.exp(x) : x);
    }
    const lag = RELEASE_LAG_DAYS[t.releaseId] ?? 20;
    const releaseDates = periods.map((p) => {
      const periodEnd = endOfMonth(p, step - 1);
      // Shared by every series of the release, as a real release calendar is.
      const monthIndex = Number(periodEnd.slice(0, 4)) * 12 + Number(periodEnd.slice(5, 7));
      const jitter = Math.floor(uniform(seed, 1000 + t.releaseId, monthIndex, 9) * 4);
      return weekdayOnOrAfter(addDays(periodEnd, lag + jitter));
    });
    const cal = calendars.get(t.releaseId) ?? new Set<string>();
    for (const d of releaseDates) cal.add(d);
    calendars.set(t.releaseId, cal);

    const fmt = (v: number) => v.toFixed(t.decimals);
    const estimate = (i: number, r: number) => {
      // r = 0 first release, larger r closer to the truth.
      const err = (t.noise * t.vol * normal(seed, si, i, 2 + Math.min(r, 20))) / (1 + r);
      return t.log ? truth[i] * Math.exp(err) : truth[i] + err;
    };
    // history[i] = list of (vintage date, value text) in order.
    const history: { rs: string; value: string }[][] = periods.map(() => []);
    const publish = (i: number, rs: string, value: string) => {
      if (end !== undefined && rs > end) return;
      const h = history[i];
      if (h.length > 0 && h[h.length - 1].value === value) return;
      h.push({ rs, value });
    };
    let withdrew = false;
    for (let v = 0; v < periods.length; v++) {
      const rs = releaseDates[v];
      const missing = uniform(seed, si, v, 7) < 0.01;
      publish(v, rs, missing ? '.' : fmt(estimate(v, 0)));
      for (let back = 1; back <= 2 && v - back >= 0; back++)
        publish(v - back, rs, fmt(estimate(v - back, back)));
      if (rs.slice(5, 7) === '07') {
        for (let back = 3; back <= 12 && v - back >= 0; back++)
          publish(v - back, rs, fmt(estimate(v - back, 3 + v)));
        // One withdrawal, as BEA dropped 1946 GDP in 1999: the first July benchmark that no longer revises
        // SYNGDP's first quarter withdraws it for good ("." after a value).
        if (id === 'SYNGDP' && v > 12 && !withdrew) {
          publish(0, rs, '.');
          withdrew = true;
        }
      }
    }
    const observations: FredObservation[] = [];
    for (const [i, h] of history.entries()) {
      for (let j = 0; j < h.length; j++) {
        observations.push({
          realtime_start: h[j].rs,
          realtime_end: j + 1 < h.length ? addDays(h[j + 1].rs, -1) : '9999-12-31',
          date: periods[i],
          value: h[j].value,
        });
      }
    }
    const release = RELEASE_TIMES[t.releaseId];
    files.push(
      {
        name: `fred_api_series_${id}.json`,
        bytes: enc.encode(
          JSON.stringify({
            seriess: [
              {
                id,
                title,
                frequency: t.frequency === 'M' ? 'Monthly' : 'Quarterly',
                frequency_short: t.frequency,
                units: t.units,
                seasonal_adjustment_short: t.sa,
                notes: 'Synthetic series generated by @asof/source-fred (not FRED data).',
              },
            ],
          }),
        ),
      },
      {
        name: `fred_api_series_release_${id}.json`,
        bytes: enc.encode(
          JSON.stringify({
            releases: [{ id: t.releaseId, name: release?.name ?? `Release ${t.releaseId}` }],
          }),
        ),
      },
      {
        name: `fred_api_series_observations_${id}_all_vintages.json`,
        bytes: enc.encode(
          JSON.stringify({
            realtime_start: '1776-07-04',
            realtime_end: '9999-12-31',
            output_type: 1,
            count: observations.length,
            offset: 0,
            limit: 100000,
            observations,
          }),
        ),
      },
    );
    mapping[id] = { ...t.placement, title, frequency: t.frequency as Frequency, unit: t.units };
  }
  for (const [rid, set] of [...calendars.entries()].sort((a, b) => a[0] - b[0])) {
    const dates = [...set].sort();
    files.push({
      name: `fred_api_release_dates_${rid}.json`,
      bytes: enc.encode(
        JSON.stringify({
          count: dates.length,
          offset: 0,
          limit: 10000,
          release_dates: dates.map((date) => ({ release_id: rid, date })),
        }),
      ),
    });
  }
  files.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { files, mapping, series: instances.map((x) => x.id) };
}

/**
 * The default (embedded) build's FRED part: generates the synthetic ALFRED files and runs the same parser
 * as a raw directory. Series ids `syn:fred:<ID>`, is_synthetic, inputs listed under source 'fred-synthetic'.
 */
export function ingestSyntheticAlfred(
  sink: AtomicSink,
  options: SyntheticAlfredOptions & Pick<FredMapOptions, 'releaseTimes'>,
): FredIngestSummary {
  const syn = generateSyntheticAlfred(options);
  return ingestFredRawFiles(syn.files, sink, {
    mapping: syn.mapping,
    synthetic: true,
    releaseTimes: options.releaseTimes,
    inputSource: 'fred-synthetic',
  });
}
