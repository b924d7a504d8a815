import {
  isoToMicros,
  isUsTradingDay,
  microsToIso,
  nextUsTradingDay,
  usTradingDays,
  zonedMicros,
} from '@asof/calendar';
import { normal as counterNormal, uniform as counterUniform, hashString } from '@asof/prng';
import type { AtomicSink } from '@asof/schema';
import { type MapPricesOptions, type MapPricesResult, mapPricesToAtomic } from './map-prices-to-atomic.ts';
import { parseYahooChart } from './parse-yahoo-chart.ts';
import type { PriceDownloadMeta } from './price-download-meta.ts';

export interface SyntheticChartSpec {
  symbol: string;
  kind: 'equity' | 'etf';
  name: string;
  startPrice: number;
  /** Annual log drift and volatility of the total-return process. */
  drift: number;
  volatility: number;
  /** Splits (ratio new/old). A date that is not a trading day moves to the next one. */
  splits: { exDate: string; ratio: number }[];
  /** Quarterly cash dividend as a fraction of the previous close (0 = none); ex-dates mid Feb/May/Aug/Nov. */
  quarterlyYield: number;
  baseVolume: number;
}

export interface GenerateSyntheticYahooChartsOptions {
  seed: number;
  from?: string;
  to?: string;
  /** Download instant written into each sidecar; prices are split-adjusted up to it, as Yahoo's are. */
  downloadedAt?: string;
  instruments?: SyntheticChartSpec[];
}

export interface SyntheticYahooChart {
  symbol: string;
  kind: 'equity' | 'etf';
  fileName: string;
  /** The Yahoo v8 chart response body. */
  text: string;
  /** The sidecar (`<fileName stem>.meta.json`) a live download would write. */
  meta: PriceDownloadMeta;
}

export const DEFAULT_SYNTHETIC_CHARTS: SyntheticChartSpec[] = [
  {
    symbol: 'SYNA',
    kind: 'equity',
    name: 'Synthetic Alpha Corp',
    startPrice: 180,
    drift: 0.12,
    volatility: 0.32,
    splits: [
      { exDate: '2018-06-04', ratio: 2 },
      { exDate: '2021-08-31', ratio: 4 },
    ],
    quarterlyYield: 0.004,
    baseVolume: 30_000_000,
  },
  {
    symbol: 'SYNB',
    kind: 'equity',
    name: 'Synthetic Beta Inc',
    startPrice: 45,
    drift: 0.05,
    volatility: 0.45,
    splits: [{ exDate: '2020-08-31', ratio: 3 }],
    quarterlyYield: 0,
    baseVolume: 8_000_000,
  },
  {
    symbol: 'SYNETF',
    kind: 'etf',
    name: 'Synthetic Broad Market ETF',
    startPrice: 200,
    drift: 0.08,
    volatility: 0.16,
    splits: [],
    quarterlyYield: 0.0038,
    baseVolume: 60_000_000,
  },
];

export { counterUniform };

const round = (v: number, dp: number): number => Math.round(v * 10 ** dp) / 10 ** dp;

/**
 * Seeded synthetic Yahoo v8 chart responses: an as-traded GBM path with splits and quarterly dividends,
 * written the way Yahoo serves it (OHLC and volume split-adjusted up to the download, dividends split-adjusted,
 * `adjclose` also dividend-adjusted, `events.splits` / `events.dividends` keyed by the ex-date open).
 * The default build parses these so the Yahoo parser and the unadjust/total-return code run offline.
 */
export function generateSyntheticYahooCharts(
  options: GenerateSyntheticYahooChartsOptions,
): SyntheticYahooChart[] {
  const from = options.from ?? '2016-01-04';
  const to = options.to ?? '2024-12-31';
  const downloadedAt = options.downloadedAt ?? '2025-01-15T12:00:00Z';
  const dlMicros = isoToMicros(downloadedAt, 'downloadedAt');
  const days = usTradingDays(from, to);
  const tz = 'America/New_York';
  const out: SyntheticYahooChart[] = [];
  for (const spec of options.instruments ?? DEFAULT_SYNTHETIC_CHARTS) {
    const stream = hashString(spec.symbol);
    const splits = spec.splits.map((s) => ({
      exDate: isUsTradingDay(s.exDate) ? s.exDate : nextUsTradingDay(s.exDate),
      ratio: s.ratio,
    }));
    const splitOn = new Map(splits.map((s) => [s.exDate, s.ratio]));
    const divMonths = new Set(['02', '05', '08', '11']);
    const dt = 1 / 252;
    const n = days.length;
    const open: number[] = new Array(n);
    const high: number[] = new Array(n);
    const low: number[] = new Array(n);
    const close: number[] = new Array(n);
    const volume: number[] = new Array(n);
    const divs: { i: number; amount: number }[] = [];
    let prev = spec.startPrice;
    let lastDivMonth = '';
    for (let i = 0; i < n; i++) {
      const date = days[i];
      const z = counterNormal(options.seed, stream, i, 0);
      const r = (spec.drift - 0.5 * spec.volatility ** 2) * dt + spec.volatility * Math.sqrt(dt) * z;
      const s = splitOn.get(date) ?? 1;
      const month = date.slice(5, 7);
      let d = 0;
      if (
        spec.quarterlyYield > 0 &&
        divMonths.has(month) &&
        Number(date.slice(8, 10)) >= 14 &&
        lastDivMonth !== date.slice(0, 7)
      ) {
        d = round((spec.quarterlyYield * prev) / s, 4);
        lastDivMonth = date.slice(0, 7);
        divs.push({ i, amount: d });
      }
      // Total return over the day is exp(r): s × (close + d) = prev × exp(r).
      const c = round((prev * Math.exp(r)) / s - d, 2);
      const o = round((prev / s) * Math.exp(0.004 * counterNormal(options.seed, stream, i, 1)), 2);
      const h = round(Math.max(o, c) * (1 + 0.006 * Math.abs(counterNormal(options.seed, stream, i, 2))), 2);
      const l = round(Math.min(o, c) * (1 - 0.006 * Math.abs(counterNormal(options.seed, stream, i, 3))), 2);
      const v = Math.round(spec.baseVolume * s * Math.exp(0.35 * counterNormal(options.seed, stream, i, 4)));
      open[i] = o;
      high[i] = h;
      low[i] = l;
      close[i] = c;
      volume[i] = v;
      prev = c;
    }
    // Vendor view: split-adjusted up to the download, as Yahoo serves it.
    const factor = new Array<number>(n);
    let f = 1;
    for (let i = n - 1; i >= 0; i--) {
      factor[i] = f;
      f *= splitOn.get(days[i]) ?? 1;
    }
    // Yahoo's adjclose: multiplicative dividend factors (1 - d / previous close) applied to earlier bars.
    const divFactor = new Array<number>(n).fill(1);
    let g = 1;
    const divAt = new Map(divs.map((x) => [x.i, x.amount]));
    for (let i = n - 1; i >= 0; i--) {
      divFactor[i] = g;
      const amt = divAt.get(i);
      // Dividend per post-split share vs. the previous close in the same share basis.
      if (amt !== undefined && i > 0) g *= 1 - (amt * (splitOn.get(days[i]) ?? 1)) / close[i - 1];
    }
    const ts = days.map((d) => Math.round(zonedMicros(d, '09:30', tz) / 1_000_000));
    const events: Record<string, unknown> = {};
    // Like Yahoo, events cover only the requested range; the sidecar carries the full split list.
    const inRange = splits.filter((s) => s.exDate >= days[0] && s.exDate <= days[n - 1]);
    if (inRange.length > 0) {
      events.splits = Object.fromEntries(
        inRange.map((s) => {
          const t = Math.round(zonedMicros(s.exDate, '09:30', tz) / 1_000_000);
          return [String(t), { date: t, numerator: s.ratio, denominator: 1, splitRatio: `${s.ratio}:1` }];
        }),
      );
    }
    if (divs.length > 0) {
      events.dividends = Object.fromEntries(
        divs.map(({ i, amount }) => [String(ts[i]), { amount: round(amount / factor[i], 6), date: ts[i] }]),
      );
    }
    const body = {
      chart: {
        result: [
          {
            meta: {
              currency: 'USD',
              symbol: spec.symbol,
              exchangeName: 'SYN',
              instrumentType: spec.kind === 'etf' ? 'ETF' : 'EQUITY',
              exchangeTimezoneName: tz,
              timezone: 'EST',
              regularMarketTime: ts[n - 1] + 23_400,
              dataGranularity: '1d',
              longName: spec.name,
            },
            timestamp: ts,
            events,
            indicators: {
              quote: [
                {
                  open: open.map((v, i) => round(v / factor[i], 6)),
                  high: high.map((v, i) => round(v / factor[i], 6)),
                  low: low.map((v, i) => round(v / factor[i], 6)),
                  close: close.map((v, i) => round(v / factor[i], 6)),
                  volume: volume.map((v, i) => Math.round(v * factor[i])),
                },
              ],
              adjclose: [{ adjclose: close.map((v, i) => round((v / factor[i]) * divFactor[i], 6)) }],
            },
          },
        ],
        error: null,
      },
    };
    const day = microsToIso(dlMicros).slice(0, 10);
    out.push({
      symbol: spec.symbol,
      kind: spec.kind,
      fileName: `${spec.symbol}_dl-${day}.json`,
      text: JSON.stringify(body),
      meta: {
        symbol: spec.symbol,
        kind: spec.kind,
        downloaded_at: downloadedAt,
        splits: splits.map((s) => ({ ex_date: s.exDate, ratio: s.ratio })),
        name: spec.name,
        source: 'synthetic',
      },
    });
  }
  return out;
}

/**
 * Generates the synthetic charts and maps them (as `syn:px:<SYM>:<field>` series, is_synthetic) through the
 * same parser and unadjust path as real Yahoo files. For the default (embedded) build.
 */
export function ingestSyntheticPrices(
  sink: AtomicSink,
  options: GenerateSyntheticYahooChartsOptions & {
    map?: Omit<MapPricesOptions, 'symbol' | 'kind' | 'source' | 'isSynthetic'>;
  },
): MapPricesResult[] {
  return generateSyntheticYahooCharts(options).map((chart) => {
    const parsed = parseYahooChart(chart.text, chart.fileName);
    return mapPricesToAtomic(
      [
        {
          parsed,
          downloadedAt: isoToMicros(chart.meta.downloaded_at!, chart.fileName),
          sourceRef: `synthetic:${chart.symbol}:seed=${options.seed}`,
          knownSplits: (chart.meta.splits ?? []).map((s) => ({ exDate: s.ex_date, ratio: s.ratio })),
          where: chart.fileName,
        },
      ],
      sink,
      {
        universeKind: 'static',
        ...options.map,
        symbol: chart.symbol,
        kind: chart.kind,
        source: 'synthetic',
        isSynthetic: true,
      },
    );
  });
}
