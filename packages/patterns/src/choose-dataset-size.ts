import { InputError } from '@asof/schema';

/** FinTSB's dataset size; the default k never exceeds it. */
export const FINTSB_K = 300;

/** The labelled candidates of one (pattern, segment) cross-section: a dataset is cut from one of them. */
export interface FintsbPool {
  pattern: string;
  segment: number;
  size: number;
}

export interface DatasetSizeRequest {
  pools: readonly FintsbPool[];
  patterns: readonly string[];
  /** Datasets wanted per pattern. */
  datasets: number;
  /** --k; undefined = choose the largest that works. */
  k?: number;
  labelMode: 'quota' | 'threshold';
  frequency: string;
  field: string;
  /** Distinct instruments among the candidates (for the message). */
  instruments: number;
}

/** Datasets of `k` series a pattern's pools give (each pool is cut into ⌊size / k⌋ disjoint chunks). */
export function datasetsAt(pools: readonly FintsbPool[], pattern: string, k: number): number {
  let n = 0;
  for (const p of pools) if (p.pattern === pattern) n += Math.floor(p.size / k);
  return n;
}

/** The largest k ≤ `cap` that gives `datasets` datasets of every pattern, 0 when even k = 1 does not. */
export function largestDatasetSize(
  pools: readonly FintsbPool[],
  patterns: readonly string[],
  datasets: number,
  cap = Number.POSITIVE_INFINITY,
): number {
  const biggest = Math.min(cap, Math.max(0, ...pools.map((p) => p.size)));
  // datasetsAt is non-increasing in k: scan down from the biggest pool.
  for (let k = biggest; k >= 1; k--) {
    if (patterns.every((p) => datasetsAt(pools, p, k) >= datasets)) return k;
  }
  return 0;
}

/**
 * The k of an export: `request.k` when the pools give `datasets` datasets of that size for every pattern,
 * else an InputError that names the k that works and why; without `request.k`, the largest k up to
 * FinTSB's 300 that works (at least 2: the per-day normalisation needs two series).
 */
export function chooseDatasetSize(request: DatasetSizeRequest): number {
  const { pools, patterns, datasets, labelMode, frequency, field, instruments } = request;
  const best = largestDatasetSize(pools, patterns, datasets, FINTSB_K);
  const uncapped = largestDatasetSize(pools, patterns, datasets);
  const what = `the ${frequency} ${field} series of ${instruments} instrument(s)`;
  const why =
    `a dataset is k distinct instruments of one pattern sharing one segment, and ${what} give at most ` +
    `${Math.max(0, ...pools.map((p) => p.size))} per pattern and segment` +
    (labelMode === 'quota'
      ? " (quota labels: at most 20% of a detail category's cross-section per pattern)"
      : '');
  const byPattern = (k: number) => patterns.map((p) => `${p} ${datasetsAt(pools, p, k)}`).join(', ');
  const threshold = labelMode === 'quota' ? ', or --labels threshold' : '';
  const context = { k: request.k ?? null, datasets, mode: labelMode, frequency, field, instruments };
  const empty = patterns.filter((p) => datasetsAt(pools, p, 1) === 0);
  if (empty.length > 0) {
    throw new InputError(
      'NOT_ENOUGH_SEGMENTS',
      `no ${labelMode}-labelled segment of ${what} is ${empty.join(' or ')}, so no k gives datasets of ` +
        `every pattern${labelMode === 'quota' ? '; try --labels threshold' : ''}, another --field or --frequency`,
      { context },
    );
  }
  if (request.k === undefined) {
    if (best >= 2) return best;
    const most = Math.min(...patterns.map((p) => datasetsAt(pools, p, 2)));
    throw new InputError(
      'NOT_ENOUGH_SEGMENTS',
      `cannot make ${datasets} datasets of 2 or more series for every pattern from ${what} (${labelMode} labels): ` +
        `${why}; at k = 2: ${byPattern(2)} possible; ${most > 0 ? `use --datasets ${most} or fewer` : 'use a universe with more instruments'}${threshold}`,
      { context },
    );
  }
  const k = request.k;
  const short = patterns.filter((p) => datasetsAt(pools, p, k) < datasets);
  if (short.length === 0) return k;
  const fix =
    uncapped > 0
      ? `use --k ${uncapped} or fewer (the largest that gives ${datasets} datasets of every pattern)`
      : 'use fewer --datasets';
  throw new InputError(
    'NOT_ENOUGH_SEGMENTS',
    `--k ${k}: cannot make ${datasets} disjoint datasets of ${k} series for pattern(s) ${short.join(', ')} ` +
      `(${labelMode} labels): ${why}; at k = ${k}: ${byPattern(k)} possible; ${fix}${threshold}`,
    {
      context: {
        ...context,
        possible: patterns.map((p) => ({ pattern: p, datasets: datasetsAt(pools, p, k) })),
      },
    },
  );
}
