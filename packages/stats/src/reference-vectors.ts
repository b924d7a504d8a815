import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One entry of reference/vectors.json (written by reference/make-reference.py). */
export interface ReferenceVector {
  name: string;
  x: number[];
  acf1: number;
  forecastability: number;
  adf?: {
    regression: 'c' | 'ct';
    autolag: 'AIC' | null;
    maxlag: number | null;
    stat: number;
    usedLag: number;
    nobs: number;
    aicGap?: number;
  };
}

export interface ReferenceFile {
  versions: Record<string, string>;
  vectors: ReferenceVector[];
}

/** Test helper: the statsmodels/numpy reference vectors committed beside the package. */
export function readReferenceVectors(): ReferenceFile {
  const path = fileURLToPath(new URL('../reference/vectors.json', import.meta.url));
  return JSON.parse(readFileSync(path, 'utf8')) as ReferenceFile;
}
