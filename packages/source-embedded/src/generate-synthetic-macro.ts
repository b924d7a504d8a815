import { type Micros, zonedMicros } from '@asof/calendar';
import type { AtomicSink, Frequency } from '@asof/schema';
import { normal, uniform } from './counter-prng.ts';
import { addMonths, isoDate, lastDayOfMonth, monthEndMicros } from './release-rules.ts';

const STREAM_MACRO = 3_000_000;

const TEMPLATES: {
  key: string;
  detail: string;
  title: string;
  unit: string;
  frequency: Frequency;
  level: number;
  growth: number;
  noise: number;
}[] = [
  {
    key: 'cpi',
    detail: 'Inflation',
    title: 'consumer price index',
    unit: 'index',
    frequency: 'M',
    level: 190,
    growth: 0.002,
    noise: 0.002,
  },
  {
    key: 'payrolls',
    detail: 'Labor',
    title: 'nonfarm payrolls',
    unit: 'thousands of persons',
    frequency: 'M',
    level: 130_000,
    growth: 0.0008,
    noise: 0.001,
  },
  {
    key: 'ip',
    detail: 'Industrial Production By Industry',
    title: 'industrial production',
    unit: 'index',
    frequency: 'M',
    level: 95,
    growth: 0.001,
    noise: 0.006,
  },
  {
    key: 'starts',
    detail: 'Housing',
    title: 'housing starts',
    unit: 'thousands of units',
    frequency: 'M',
    level: 1_200,
    growth: 0,
    noise: 0.05,
  },
  {
    key: 'm2',
    detail: 'Money',
    title: 'money stock M2',
    unit: 'billions of USD',
    frequency: 'M',
    level: 6_500,
    growth: 0.005,
    noise: 0.003,
  },
  {
    key: 'gdp',
    detail: 'Gdp',
    title: 'real gross domestic product',
    unit: 'billions of chained USD',
    frequency: 'Q',
    level: 14_000,
    growth: 0.005,
    noise: 0.006,
  },
];

export interface SyntheticMacroConfig {
  seed: number;
  start: string;
  end: string;
  series: number;
}

/**
 * Monthly and quarterly macro series published with a lag (monthly: 12–16 days after the month at 08:30
 * New York; quarterly: 28–30 days) and revised at the next two releases. Some "revisions" repeat the
 * value unchanged: re-publication is not a new vintage, and the build must drop those rows.
 */
export function generateSyntheticMacro(config: SyntheticMacroConfig, sink: AtomicSink): void {
  const [sy, sm] = config.start.split('-').map(Number);
  const [ey, em] = config.end.split('-').map(Number);
  for (let k = 0; k < config.series; k++) {
    const tpl = TEMPLATES[k % TEMPLATES.length];
    const s = STREAM_MACRO + k * 16;
    const id = `syn:macro:${tpl.key}-${String(k).padStart(2, '0')}`;
    sink.addSeries({
      series_id: id,
      source: 'synthetic',
      source_key: `macro/${k}/${tpl.key}`,
      title: `Synthetic ${tpl.title} #${k}`,
      unit: tpl.unit,
      frequency: tpl.frequency,
      scope: 'Country',
      category: 'Macro Indicators',
      detail_category: tpl.detail,
      entity_id: null,
      entity_name: null,
      currency: tpl.unit.includes('USD') ? 'USD' : null,
      seasonal_adjustment: 'SA',
      fiscal_year_end: null,
      is_synthetic: true,
      universe_kind: 'point_in_time',
    });
    const step = tpl.frequency === 'Q' ? 3 : 1;
    let [y, m] = [sy, sm];
    while (tpl.frequency === 'Q' && m % 3 !== 0) [y, m] = addMonths(y, m, 1);
    let level = tpl.level * (0.8 + 0.4 * uniform(config.seed, s, 0, 1));
    for (let t = 0; y < ey || (y === ey && m <= em); t++) {
      level *= Math.exp(tpl.growth + tpl.noise * normal(config.seed, s, t, 1));
      const ts = monthEndMicros(y, m);
      const [py, pm] = addMonths(y, m, 1 - step);
      const periodStart = zonedMicros(isoDate(py, pm, 1), '00:00', 'America/New_York');
      const lagDays =
        tpl.frequency === 'Q'
          ? 28 + Math.floor(uniform(config.seed, s, t, 2) * 3)
          : 12 + Math.floor(uniform(config.seed, s, t, 2) * 5);
      let value = round(level);
      for (let rel = 0; rel < 3; rel++) {
        const [ry, rm] = addMonths(y, m, rel * step);
        const day = Math.min(lagDays, 28);
        const releaseDate = isoDate(...nextMonthDay(ry, rm, day));
        const availableAt: Micros = zonedMicros(releaseDate, '08:30', 'America/New_York');
        if (rel > 0) {
          const u = uniform(config.seed, s + 1, t, rel);
          if (u < 0.7) value = round(value * (1 + 0.3 * tpl.noise * normal(config.seed, s + 2, t, rel)));
        }
        sink.addObservation({
          series_id: id,
          timestamp: ts,
          period_start: periodStart,
          available_at: availableAt,
          value,
          available_at_basis: 'vintage',
          source_ref: `synthetic:release=${releaseDate}`,
        });
      }
      [y, m] = addMonths(y, m, step);
    }
  }
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

function nextMonthDay(y: number, m: number, day: number): [number, number, number] {
  const [ny, nm] = addMonths(y, m, 1);
  return [ny, nm, Math.min(day, lastDayOfMonth(ny, nm))];
}
