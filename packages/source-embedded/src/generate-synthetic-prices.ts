import { normalAt, stepKey, streamKey, uniform, uniformAt } from '@asof/prng';
import type { AtomicSink } from '@asof/schema';
import { tradingSessionGrid } from './trading-session-grid.ts';

export const PRICE_PROCESSES = ['random_walk', 'gbm_drift', 'garch', 'two_regime', 'jump'] as const;
export type PriceProcess = (typeof PRICE_PROCESSES)[number];

const FIELDS = ['open', 'high', 'low', 'close', 'volume'] as const;
const STREAM_PRICES = 1_000_000;

/** Prices are quoted to 1/10,000 of a dollar. */
function toTenThousandths(price: number): number {
  return Math.round(price * 10_000) / 10_000;
}

export function syntheticInstrumentId(i: number): string {
  return `${i % 10 === 9 ? 'ETF' : 'EQ'}${String(i).padStart(4, '0')}`;
}

/** The process of instrument i (round robin, so every process is present in any universe of ≥ 5). */
export function priceProcessOf(i: number): PriceProcess {
  return PRICE_PROCESSES[i % PRICE_PROCESSES.length];
}

/**
 * Daily log returns of one instrument. The driftless random walk has log drift −σ²/2, which makes the
 * price itself a martingale: no forecaster beats "tomorrow = today" in expectation.
 */
export function simulateLogReturns(
  seed: number,
  i: number,
  n: number,
): { r: Float64Array; sigma: Float64Array } {
  const s = STREAM_PRICES + i * 16;
  const r = new Float64Array(n);
  const sig = new Float64Array(n);
  const base = 0.01 + 0.01 * uniform(seed, s, 0, 1);
  // normalAt(stepKey(key, t)) is normal(seed, s, t), with the stream's mixing done once (@asof/prng).
  const key = streamKey(seed, s);
  switch (priceProcessOf(i)) {
    case 'random_walk':
      for (let t = 0; t < n; t++) {
        r[t] = base * normalAt(stepKey(key, t)) - (base * base) / 2;
        sig[t] = base;
      }
      break;
    case 'gbm_drift': {
      // ±25…50% a year: strong enough for trend labels over 250-day segments.
      const mu = (Math.floor(i / 5) % 2 === 0 ? 1 : -1) * (0.25 + 0.25 * uniform(seed, s, 0, 2));
      for (let t = 0; t < n; t++) {
        r[t] = mu / 252 - (base * base) / 2 + base * normalAt(stepKey(key, t));
        sig[t] = base;
      }
      break;
    }
    case 'garch': {
      const alpha = 0.08;
      const beta = 0.9;
      const omega = base * base * (1 - alpha - beta);
      let v = base * base;
      let eps = 0;
      for (let t = 0; t < n; t++) {
        v = omega + alpha * eps * eps + beta * v;
        eps = Math.sqrt(v) * normalAt(stepKey(key, t));
        r[t] = eps - v / 2;
        sig[t] = Math.sqrt(v);
      }
      break;
    }
    case 'two_regime': {
      let high = false;
      for (let t = 0; t < n; t++) {
        const at = stepKey(key, t);
        const stay = high ? 0.95 : 0.985;
        if (uniformAt(at, 3) > stay) high = !high;
        const sd = high ? 3 * base : 0.6 * base;
        r[t] = sd * normalAt(at) - (sd * sd) / 2;
        sig[t] = sd;
      }
      break;
    }
    case 'jump': {
      // Crash/rally episodes of 3–5 consecutive large moves (~1.5 a year): FinTSB's "extreme" pattern.
      let left = 0;
      let dir = 1;
      for (let t = 0; t < n; t++) {
        const at = stepKey(key, t);
        let x = base * normalAt(at) - (base * base) / 2;
        if (left === 0 && uniformAt(at, 4) < 0.006) {
          left = 3 + Math.floor(uniformAt(at, 5) * 3);
          dir = uniformAt(at, 6) < 0.6 ? -1 : 1;
        }
        if (left > 0) {
          x += dir * (0.08 + 0.07 * uniformAt(at, 7));
          left--;
        }
        r[t] = x;
        sig[t] = base;
      }
      break;
    }
  }
  return { r, sigma: sig };
}

export interface SyntheticPricesConfig {
  seed: number;
  start: string;
  end: string;
  instruments: number;
}

/** ≥ 200 synthetic instruments × daily OHLCV on the US trading sessions (NYSE holidays and early closes), emitted as atomic rows. */
export function generateSyntheticPrices(config: SyntheticPricesConfig, sink: AtomicSink): void {
  const grid = tradingSessionGrid(config.start, config.end);
  const n = grid.length;
  const closes = Float64Array.from(grid, (session) => session.close);
  for (let i = 0; i < config.instruments; i++) {
    const id = syntheticInstrumentId(i);
    const isEtf = id.startsWith('ETF');
    const process = priceProcessOf(i);
    const seriesId = (f: (typeof FIELDS)[number]) => `syn:px:${id}:${f}`;
    for (const f of FIELDS) {
      const cap = `${f[0].toUpperCase()}${f.slice(1)}`;
      sink.addSeries({
        series_id: seriesId(f),
        source: 'synthetic',
        source_key: `prices/${process}/${i}/${f}`,
        title: `Synthetic ${isEtf ? 'ETF' : 'equity'} ${id} daily ${f} (${process})`,
        unit: f === 'volume' ? 'shares' : 'USD',
        frequency: 'BD',
        scope: 'Individual',
        category: isEtf ? 'ETF' : 'Equity',
        detail_category: `${isEtf ? 'ETF' : 'Equity'} OHLCV ${cap}`,
        entity_id: `syn:${id}`,
        entity_name: `Synthetic ${id}`,
        currency: f === 'volume' ? null : 'USD',
        seasonal_adjustment: null,
        fiscal_year_end: null,
        is_synthetic: true,
        universe_kind: 'point_in_time',
      });
    }
    const { r, sigma } = simulateLogReturns(config.seed, i, n);
    const s = STREAM_PRICES + i * 16 + 8;
    let close = 20 + 180 * uniform(config.seed, s, 0, 9);
    const volBase = 1e5 + 5e6 * uniform(config.seed, s, 0, 10);
    const ref = `synthetic:seed=${config.seed}`;
    const values = FIELDS.map(() => new Float64Array(n));
    const key = streamKey(config.seed, s);
    for (let t = 0; t < n; t++) {
      const at = stepKey(key, t);
      const prev = close;
      close = prev * Math.exp(r[t]);
      const sd = sigma[t];
      const open = prev * Math.exp(0.2 * sd * normalAt(at, 1));
      const high = Math.max(open, close) * Math.exp(Math.abs(0.5 * sd * normalAt(at, 2)));
      const low = Math.min(open, close) * Math.exp(-Math.abs(0.5 * sd * normalAt(at, 3)));
      const volume = Math.round(volBase * Math.exp(0.3 * normalAt(at, 4)) * (1 + 20 * Math.abs(r[t])));
      values[0][t] = toTenThousandths(open);
      values[1][t] = toTenThousandths(high);
      values[2][t] = toTenThousandths(low);
      values[3][t] = toTenThousandths(close);
      values[4][t] = volume;
    }
    // Each series' rows in one block (the bars' order within a series is the same as row by row).
    for (const [k, f] of FIELDS.entries()) {
      sink.addObservations({
        series_id: seriesId(f),
        timestamp: closes,
        available_at: closes,
        value: values[k],
        available_at_basis: 'bar_close',
        source_ref: ref,
      });
    }
  }
}
