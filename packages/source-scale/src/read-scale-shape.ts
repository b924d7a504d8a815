import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FREQUENCIES, type Frequency, InputError } from '@asof/schema';

/** One FinVerse unit's size (Table 1): how many series and how many observations in all. */
export interface ScaleShapeRow {
  scope: string;
  category: string;
  detail_category: string;
  frequency: Frequency;
  series: number;
  points: number;
}

export const SCALE_SHAPE_FILE = fileURLToPath(new URL('../data/finverse-shape.tsv', import.meta.url));

/** Reads the FinVerse shape table (data/finverse-shape.tsv, copied from ../shared/spec). */
export function readScaleShape(path: string = SCALE_SHAPE_FILE): ScaleShapeRow[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const rows: ScaleShapeRow[] = [];
  let header = true;
  lines.forEach((line, n) => {
    if (line.startsWith('#') || line.trim() === '') return;
    if (header) {
      header = false;
      return;
    }
    const f = line.split('\t');
    const frequency = f[3] as Frequency;
    const series = Number(f[4]);
    const points = Number(f[5]);
    if (f.length !== 6 || !FREQUENCIES.includes(frequency) || !(series > 0) || !(points >= series)) {
      throw new InputError(
        'SCALE_SHAPE_INVALID',
        `${path}:${n + 1}: expected scope, category, detail_category, frequency (${FREQUENCIES.join('/')}), series > 0, points ≥ series; got ${JSON.stringify(f)}`,
      );
    }
    rows.push({ scope: f[0], category: f[1], detail_category: f[2], frequency, series, points });
  });
  return rows;
}
