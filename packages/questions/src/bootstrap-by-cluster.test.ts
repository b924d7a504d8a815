import { describe, expect, it } from 'vitest';
import {
  bootstrapByCluster,
  clusterSums,
  percentileInterval,
  replicateDifference,
} from './bootstrap-by-cluster.ts';

const mean = (s: readonly number[], n: number) => (n > 0 ? s[0] / n : null);
const instances = [
  { cluster_id: 'b', parts: [1] },
  { cluster_id: 'a', parts: [0] },
  { cluster_id: 'a', parts: [0] },
  { cluster_id: 'c', parts: [0.5] },
  { cluster_id: 'd', parts: [0.25] },
];

describe('clusterSums', () => {
  it('sums parts and counts instances per cluster, in cluster_id order', () => {
    expect(clusterSums(instances)).toEqual([
      { cluster_id: 'a', sums: [0], n: 2 },
      { cluster_id: 'b', sums: [1], n: 1 },
      { cluster_id: 'c', sums: [0.5], n: 1 },
      { cluster_id: 'd', sums: [0.25], n: 1 },
    ]);
  });
});

describe('bootstrapByCluster', () => {
  const opts = { seed: 0, stream: 'm\u0000VAL\u0000T1', resamples: 1000 };

  it('is a pure function of seed, stream and clusters (not of instance order)', () => {
    const a = bootstrapByCluster(clusterSums(instances), mean, opts);
    const b = bootstrapByCluster(clusterSums([...instances].reverse()), mean, opts);
    expect(a).toHaveLength(1000);
    expect(b).toEqual(a);
    expect(bootstrapByCluster(clusterSums(instances), mean, { ...opts, seed: 1 })).not.toEqual(a);
    expect(bootstrapByCluster(clusterSums(instances), mean, { ...opts, stream: 'other' })).not.toEqual(a);
  });

  it('pins the first replicates of seed 0 (a change to the draws changes every CI)', () => {
    const a = bootstrapByCluster(clusterSums(instances), mean, opts);
    expect(a.slice(0, 5).map((x) => Number((x as number).toFixed(6)))).toEqual([
      0.208333, 0.4, 0.333333, 0.4, 0,
    ]);
  });

  it('resamples clusters, not instances: one cluster gives the score on every draw', () => {
    const one = clusterSums([
      { cluster_id: 'x', parts: [1] },
      { cluster_id: 'x', parts: [0] },
    ]);
    expect(new Set(bootstrapByCluster(one, mean, opts))).toEqual(new Set([0.5]));
  });

  it('the percentile interval covers the point estimate and lies within the data', () => {
    const reps = bootstrapByCluster(clusterSums(instances), mean, opts);
    const ci = percentileInterval(reps) as { low: number; high: number };
    expect(ci.low).toBeGreaterThanOrEqual(0);
    expect(ci.high).toBeLessThanOrEqual(1);
    expect(ci.low).toBeLessThan(1.75 / 5);
    expect(ci.high).toBeGreaterThan(1.75 / 5);
  });

  it('no clusters: every replicate is null and there is no interval', () => {
    const reps = bootstrapByCluster([], mean, opts);
    expect(reps.every((x) => x === null)).toBe(true);
    expect(percentileInterval(reps)).toBeNull();
  });
});

describe('percentileInterval', () => {
  it("interpolates between order statistics (R's type 7) and skips undefined replicates", () => {
    const xs = [null, 5, 1, 3, 2, 4];
    // 5 values: h = 4·0.025 = 0.1 → 1.1; h = 4·0.975 = 3.9 → 4.9
    expect(percentileInterval(xs)).toEqual({ low: 1.1, high: 4.9 });
    expect(percentileInterval([1, 2, 3, 4, 5], 0.5)).toEqual({ low: 2, high: 4 });
  });

  it('replicateDifference is a − b per replicate, null where either is', () => {
    expect(replicateDifference([1, null, 3], [0.5, 1, null])).toEqual([0.5, null, null]);
  });
});
