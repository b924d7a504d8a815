import { join } from 'node:path';
import { isoToMicros } from '@asof/calendar';
import { runSplit } from '@asof/split';
import { monthEnd, plusDays, weekdayBars } from './mini-observations.ts';
import { type MiniObservation, writeMiniUniverse } from './write-mini-universe.ts';

/**
 * A hand-made universe for the runner's tests (tests only): a monthly series released 15 days after the
 * month, every 2020 value revised 40 days after (+0.5), a 2019 value withdrawn in 2020 and published again
 * later (docs/decisions/0007); weekday bars; a quarterly series released 30 days after the quarter.
 */
export function runnerFixtureObservations(): MiniObservation[] {
  const obs: MiniObservation[] = [];
  for (let y = 2016; y <= 2022; y++) {
    for (let m = 1; m <= 12; m++) {
      const t = monthEnd(y, m);
      obs.push({ series_id: 'm:cpi', timestamp: t, available_at: plusDays(t, 15), value: y * 100 + m });
      if (y === 2020)
        obs.push({
          series_id: 'm:cpi',
          timestamp: t,
          available_at: plusDays(t, 40),
          value: y * 100 + m + 0.5,
        });
    }
  }
  obs.push({
    series_id: 'm:cpi',
    timestamp: monthEnd(2019, 9),
    available_at: '2020-02-10T13:30:00Z',
    value: null,
  });
  obs.push({
    series_id: 'm:cpi',
    timestamp: monthEnd(2019, 9),
    available_at: '2020-05-10T13:30:00Z',
    value: 777,
  });
  obs.push(
    ...weekdayBars('b:px', '2018-10-01', '2021-06-30', (t) => 100 + Math.sin(isoToMicros(t) / 1e12) * 10),
  );
  for (let y = 2015; y <= 2022; y++) {
    for (const m of [3, 6, 9, 12]) {
      const t = monthEnd(y, m);
      obs.push({ series_id: 'q:gdp', timestamp: t, available_at: plusDays(t, 30), value: y + m / 100 });
    }
  }
  return obs;
}

/** Writes the fixture universe and splits of it under `root`; returns the split manifests by name. */
export async function writeRunnerFixture(
  root: string,
  splits: Record<
    string,
    Parameters<typeof runSplit>[0] extends infer O ? Omit<O, 'manifestPath' | 'outDir'> : never
  >,
): Promise<Record<string, string>> {
  await writeMiniUniverse(join(root, 'universe'), {
    name: 'runner',
    eval_start: '2020-01-01',
    series: [
      { series_id: 'm:cpi', frequency: 'M', eval_target: true },
      { series_id: 'b:px', frequency: 'BD', eval_target: true },
      { series_id: 'q:gdp', frequency: 'Q', eval_target: true },
    ],
    observations: runnerFixtureObservations(),
  });
  const out: Record<string, string> = {};
  for (const [name, options] of Object.entries(splits)) {
    const outDir = join(root, name);
    await runSplit({ manifestPath: join(root, 'universe', 'manifest.json'), outDir, ...options });
    out[name] = join(outDir, 'manifest.json');
  }
  return out;
}
