import { hashString, stepKey, streamKey, uniformAt } from '@asof/prng';
import type { ScoredInstance } from './score-question-family.ts';

/** One cluster's summed parts and instance count. */
export interface ClusterSums {
  cluster_id: string;
  sums: number[];
  n: number;
}

/** Sums the instances' parts per cluster, clusters in cluster_id order (the draws index this order). */
export function clusterSums(instances: readonly ScoredInstance[]): ClusterSums[] {
  const by = new Map<string, ClusterSums>();
  for (const i of instances) {
    let c = by.get(i.cluster_id);
    if (c === undefined) {
      c = { cluster_id: i.cluster_id, sums: i.parts.map(() => 0), n: 0 };
      by.set(i.cluster_id, c);
    }
    for (let j = 0; j < i.parts.length; j++) c.sums[j] += i.parts[j];
    c.n++;
  }
  return [...by.values()].sort((a, b) =>
    a.cluster_id < b.cluster_id ? -1 : a.cluster_id > b.cluster_id ? 1 : 0,
  );
}

export interface BootstrapOptions {
  seed: number;
  /** Names the resampling (model/family/window): each name draws its own independent clusters. */
  stream: string;
  resamples: number;
}

/**
 * The statistic on B resamples of the clusters with replacement (instances of one cluster are correlated:
 * resampling instances would understate the spread). Resample b draws cluster j's index from the
 * counter-based uniform (seed, stream, b, j), so the replicates depend on the seed, the stream name and the
 * clusters only, never on the order models or families are scored in.
 */
export function bootstrapByCluster(
  clusters: readonly ClusterSums[],
  stat: (sums: readonly number[], n: number) => number | null,
  options: BootstrapOptions,
): (number | null)[] {
  const c = clusters.length;
  const out: (number | null)[] = [];
  if (c === 0) return Array.from({ length: options.resamples }, () => null);
  const width = clusters[0].sums.length;
  const key = streamKey(options.seed >>> 0, hashString(options.stream));
  for (let b = 0; b < options.resamples; b++) {
    const k = stepKey(key, b);
    const sums = new Array<number>(width).fill(0);
    let n = 0;
    for (let j = 0; j < c; j++) {
      const pick = clusters[Math.floor(uniformAt(k, j) * c)];
      for (let w = 0; w < width; w++) sums[w] += pick.sums[w];
      n += pick.n;
    }
    out.push(stat(sums, n));
  }
  return out;
}

/**
 * The percentile interval of the replicates that are defined (a resample can make a ratio undefined),
 * by linear interpolation between order statistics (R's type 7); null when none is.
 */
export function percentileInterval(
  replicates: readonly (number | null)[],
  level = 0.95,
): { low: number; high: number } | null {
  const xs = replicates.filter((x): x is number => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const q = (p: number) => {
    const h = (xs.length - 1) * p;
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, xs.length - 1);
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo]);
  };
  const tail = (1 - level) / 2;
  return { low: q(tail), high: q(1 - tail) };
}

/** Replicate-wise a − b, for the T1 − T2 gap from two independent bootstraps of the same length. */
export function replicateDifference(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
): (number | null)[] {
  return a.map((x, i) => {
    const y = b[i];
    return x === null || y === null || y === undefined ? null : x - y;
  });
}
