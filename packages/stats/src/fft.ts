/**
 * Complex FFT (forward, e^{−2πi·jk/n}, unscaled) of any length, in split re/im arrays.
 *
 * Lengths whose prime factors are all ≤ 61 use a mixed-radix decimation-in-time transform, run level by
 * level over a digit-reversed copy of the input (specialised radix 4, 2, 3 and 5, a generic O(p²)
 * butterfly for larger primes) — segment lengths such as 250, 252 and 4,000 = 2⁵·5³ stay on this path,
 * while 365 = 5·73 goes to Bluestein. Other lengths use Bluestein's
 * chirp-z algorithm on a power-of-two grid ≥ 2n − 1. Plans are cached per length because the
 * analysis transforms many series of the same few lengths.
 */

const MAX_DIRECT_PRIME = 61;

interface MixedPlan {
  kind: 'mixed';
  n: number;
  factors: number[];
  /** lens[level] = the product of factors[level…]: the length of that level's sub-transforms. */
  lens: number[];
  /** Where each output slot's input sits before the first butterflies: the mixed-radix digit reversal. */
  perm: Int32Array;
  /** Twiddles W_n^k = e^{−2πik/n}, k < n. */
  cos: Float64Array;
  sin: Float64Array;
  outRe: Float64Array;
  outIm: Float64Array;
  /** Scratch for the generic butterfly (largest factor). */
  tRe: Float64Array;
  tIm: Float64Array;
  /**
   * Per level with a generic factor p, its DFT matrix gathered from cos/sin: entry q·p + s holds
   * W_n^{((q·s) mod p)·n/p}, the very twiddle the butterfly's output q applies to input s.
   */
  dftCos: (Float64Array | null)[];
  dftSin: (Float64Array | null)[];
}

interface BluesteinPlan {
  kind: 'bluestein';
  n: number;
  inner: MixedPlan;
  /** Chirp w_k = e^{−iπk²/n}, k < n. */
  wRe: Float64Array;
  wIm: Float64Array;
  /** Transform of the kernel b, b_k = b_{N−k} = conj(w_k), pre-divided by N for the inverse. */
  bRe: Float64Array;
  bIm: Float64Array;
  aRe: Float64Array;
  aIm: Float64Array;
}

export type FftPlan = MixedPlan | BluesteinPlan;

const plans = new Map<number, FftPlan>();

function factorize(n: number): number[] | null {
  const factors: number[] = [];
  let rest = n;
  while (rest % 4 === 0) {
    factors.push(4);
    rest /= 4;
  }
  while (rest % 2 === 0) {
    factors.push(2);
    rest /= 2;
  }
  for (let p = 3; p * p <= rest; p += 2) {
    while (rest % p === 0) {
      if (p > MAX_DIRECT_PRIME) return null;
      factors.push(p);
      rest /= p;
    }
  }
  if (rest > 1) {
    if (rest > MAX_DIRECT_PRIME) return null;
    factors.push(rest);
  }
  return factors;
}

function mixedPlan(n: number, factors: number[]): MixedPlan {
  const cos = new Float64Array(n);
  const sin = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    cos[k] = Math.cos((2 * Math.PI * k) / n);
    sin[k] = -Math.sin((2 * Math.PI * k) / n);
  }
  const maxP = Math.max(1, ...factors);
  const lens = factors.map((_, level) => factors.slice(level).reduce((a, b) => a * b, 1));
  const gather = (table: Float64Array) =>
    factors.map((p) => {
      if (p <= 5) return null;
      const np = n / p;
      const out = new Float64Array(p * p);
      for (let q = 0; q < p; q++) for (let s = 0; s < p; s++) out[q * p + s] = table[((q * s) % p) * np];
      return out;
    });
  return {
    kind: 'mixed',
    n,
    factors,
    lens,
    perm: digitReversal(n, factors),
    cos,
    sin,
    outRe: new Float64Array(n),
    outIm: new Float64Array(n),
    tRe: new Float64Array(maxP),
    tIm: new Float64Array(maxP),
    dftCos: gather(cos),
    dftSin: gather(sin),
  };
}

/** The cached plan for length n (n ≥ 1). */
export function fftPlan(n: number): FftPlan {
  const cached = plans.get(n);
  if (cached) return cached;
  const factors = factorize(n);
  let plan: FftPlan;
  if (factors) {
    plan = mixedPlan(n, factors);
  } else {
    let size = 1;
    while (size < 2 * n - 1) size <<= 1;
    const inner = fftPlan(size) as MixedPlan;
    const wRe = new Float64Array(n);
    const wIm = new Float64Array(n);
    const bRe = new Float64Array(size);
    const bIm = new Float64Array(size);
    for (let k = 0; k < n; k++) {
      // k² mod 2n keeps the angle small, so the chirp stays accurate for large k.
      const angle = (Math.PI * ((k * k) % (2 * n))) / n;
      wRe[k] = Math.cos(angle);
      wIm[k] = -Math.sin(angle);
      bRe[k] = wRe[k];
      bIm[k] = -wIm[k];
      if (k > 0) {
        bRe[size - k] = wRe[k];
        bIm[size - k] = -wIm[k];
      }
    }
    fftInPlace(inner, bRe, bIm);
    for (let k = 0; k < size; k++) {
      bRe[k] /= size;
      bIm[k] /= size;
    }
    plan = {
      kind: 'bluestein',
      n,
      inner,
      wRe,
      wIm,
      bRe,
      bIm,
      aRe: new Float64Array(size),
      aIm: new Float64Array(size),
    };
  }
  plans.set(n, plan);
  return plan;
}

/**
 * The input index each output slot starts from: the order in which a recursive decimation-in-time
 * transform (split the n/stride-strided subsequence at inOff into `factors[level]` interleaved ones,
 * each transformed into its own consecutive block of out) reaches its length-1 leaves.
 */
function digitReversal(n: number, factors: readonly number[]): Int32Array {
  const perm = new Int32Array(n);
  const visit = (inOff: number, stride: number, outOff: number, len: number, level: number) => {
    if (level === factors.length) {
      perm[outOff] = inOff;
      return;
    }
    const p = factors[level];
    const m = len / p;
    for (let s = 0; s < p; s++) visit(inOff + s * stride, stride * p, outOff + s * m, m, level + 1);
  };
  if (n > 1) visit(0, 1, 0, n, 0);
  return perm;
}

/**
 * The mixed-radix transform of in into plan.outRe/outIm: the inputs in digit-reversed order, then the
 * butterflies of each level from the innermost out, so every sub-transform is whole before the level
 * above reads it. The arithmetic of each output is that of the recursive form; only the order in which
 * independent blocks are visited differs, so the results are the same numbers, without a call per block.
 */
function mixedTransform(plan: MixedPlan, inRe: Float64Array, inIm: Float64Array): void {
  const { outRe, outIm, perm, n } = plan;
  for (let j = 0; j < n; j++) {
    outRe[j] = inRe[perm[j]];
    outIm[j] = inIm[perm[j]];
  }
  for (let level = plan.factors.length - 1; level >= 0; level--) butterflyLevel(plan, level);
}

/** One DIT level: combines each block of `lens[level]` outputs from its factors[level] sub-transforms. */
function butterflyLevel(plan: MixedPlan, level: number): void {
  const { n } = plan;
  const p = plan.factors[level];
  const len = plan.lens[level];
  // Integer quotients (| 0), so the loops index with small integers rather than doubles.
  const m = (len / p) | 0;
  // Twiddle step for this level: W_len^{s·k} = W_n^{s·k·(n/len)}.
  const tw = (n / len) | 0;
  if (p === 2) radix2Level(plan, len, m, tw);
  else if (p === 4) radix4Level(plan, len, m, tw);
  else if (p === 3) radix3Level(plan, len, m, tw);
  else if (p === 5) radix5Level(plan, len, m, tw);
  else genericLevel(plan, level, len, m, tw);
}

/** Radix 2: visits k outside the blocks, so a k's twiddle is read once for every block at that offset. */
function radix2Level(plan: MixedPlan, len: number, m: number, tw: number): void {
  const { outRe, outIm, cos, sin, n } = plan;
  for (let k = 0; k < m; k++) {
    const wc = cos[k * tw];
    const ws = sin[k * tw];
    for (let i0 = k; i0 < n; i0 += len) {
      const i1 = i0 + m;
      const br = outRe[i1] * wc - outIm[i1] * ws;
      const bi = outRe[i1] * ws + outIm[i1] * wc;
      const ar = outRe[i0];
      const ai = outIm[i0];
      outRe[i0] = ar + br;
      outIm[i0] = ai + bi;
      outRe[i1] = ar - br;
      outIm[i1] = ai - bi;
    }
  }
}

/** Radix 4, k outside the blocks like radix 2; (b − d)·(−i) for the forward transform. */
function radix4Level(plan: MixedPlan, len: number, m: number, tw: number): void {
  const { outRe, outIm, cos, sin, n } = plan;
  for (let k = 0; k < m; k++) {
    const w1 = k * tw;
    const c1 = cos[w1];
    const s1 = sin[w1];
    const c2 = cos[2 * w1];
    const s2 = sin[2 * w1];
    const c3 = cos[3 * w1];
    const s3 = sin[3 * w1];
    for (let i0 = k; i0 < n; i0 += len) {
      const i1 = i0 + m;
      const i2 = i1 + m;
      const i3 = i2 + m;
      const ar = outRe[i0];
      const ai = outIm[i0];
      const br = outRe[i1] * c1 - outIm[i1] * s1;
      const bi = outRe[i1] * s1 + outIm[i1] * c1;
      const cr = outRe[i2] * c2 - outIm[i2] * s2;
      const ci = outRe[i2] * s2 + outIm[i2] * c2;
      const dr = outRe[i3] * c3 - outIm[i3] * s3;
      const di = outRe[i3] * s3 + outIm[i3] * c3;
      const s0r = ar + cr;
      const s0i = ai + ci;
      const s1r = ar - cr;
      const s1i = ai - ci;
      const s2r = br + dr;
      const s2i = bi + di;
      // (b − d)·(−i) for the forward transform.
      const s3r = bi - di;
      const s3i = dr - br;
      outRe[i0] = s0r + s2r;
      outIm[i0] = s0i + s2i;
      outRe[i1] = s1r + s3r;
      outIm[i1] = s1i + s3i;
      outRe[i2] = s0r - s2r;
      outIm[i2] = s0i - s2i;
      outRe[i3] = s1r - s3r;
      outIm[i3] = s1i - s3i;
    }
  }
}

/** Radix 3, block by block. */
function radix3Level(plan: MixedPlan, len: number, m: number, tw: number): void {
  const { outRe, outIm, cos, sin, n } = plan;
  const s1 = Math.sqrt(3) / 2;
  for (let outOff = 0; outOff < n; outOff += len)
    for (let k = 0; k < m; k++) {
      const i0 = outOff + k;
      const i1 = i0 + m;
      const i2 = i1 + m;
      const w1 = k * tw;
      const w2 = 2 * w1;
      const a0r = outRe[i0];
      const a0i = outIm[i0];
      const a1r = outRe[i1] * cos[w1] - outIm[i1] * sin[w1];
      const a1i = outRe[i1] * sin[w1] + outIm[i1] * cos[w1];
      const a2r = outRe[i2] * cos[w2] - outIm[i2] * sin[w2];
      const a2i = outRe[i2] * sin[w2] + outIm[i2] * cos[w2];
      const br = a1r + a2r;
      const bi = a1i + a2i;
      const tr = a0r - br / 2;
      const ti = a0i - bi / 2;
      const ur = s1 * (a1r - a2r);
      const ui = s1 * (a1i - a2i);
      outRe[i0] = a0r + br;
      outIm[i0] = a0i + bi;
      // X1 = t − i·u, X2 = t + i·u.
      outRe[i1] = tr + ui;
      outIm[i1] = ti - ur;
      outRe[i2] = tr - ui;
      outIm[i2] = ti + ur;
    }
}

/** Radix 5, block by block. */
function radix5Level(plan: MixedPlan, len: number, m: number, tw: number): void {
  const { outRe, outIm, cos, sin, n } = plan;
  const c1 = Math.cos((2 * Math.PI) / 5);
  const c2 = Math.cos((4 * Math.PI) / 5);
  const s1 = Math.sin((2 * Math.PI) / 5);
  const s2 = Math.sin((4 * Math.PI) / 5);
  for (let outOff = 0; outOff < n; outOff += len)
    for (let k = 0; k < m; k++) {
      const i0 = outOff + k;
      const i1 = i0 + m;
      const i2 = i1 + m;
      const i3 = i2 + m;
      const i4 = i3 + m;
      const w1 = k * tw;
      const w2 = 2 * w1;
      const w3 = 3 * w1;
      const w4 = 4 * w1;
      const a0r = outRe[i0];
      const a0i = outIm[i0];
      const a1r = outRe[i1] * cos[w1] - outIm[i1] * sin[w1];
      const a1i = outRe[i1] * sin[w1] + outIm[i1] * cos[w1];
      const a2r = outRe[i2] * cos[w2] - outIm[i2] * sin[w2];
      const a2i = outRe[i2] * sin[w2] + outIm[i2] * cos[w2];
      const a3r = outRe[i3] * cos[w3] - outIm[i3] * sin[w3];
      const a3i = outRe[i3] * sin[w3] + outIm[i3] * cos[w3];
      const a4r = outRe[i4] * cos[w4] - outIm[i4] * sin[w4];
      const a4i = outRe[i4] * sin[w4] + outIm[i4] * cos[w4];
      const b1r = a1r + a4r;
      const b1i = a1i + a4i;
      const b2r = a2r + a3r;
      const b2i = a2i + a3i;
      const d1r = a1r - a4r;
      const d1i = a1i - a4i;
      const d2r = a2r - a3r;
      const d2i = a2i - a3i;
      const t1r = a0r + c1 * b1r + c2 * b2r;
      const t1i = a0i + c1 * b1i + c2 * b2i;
      const t2r = a0r + c2 * b1r + c1 * b2r;
      const t2i = a0i + c2 * b1i + c1 * b2i;
      const u1r = s1 * d1r + s2 * d2r;
      const u1i = s1 * d1i + s2 * d2i;
      const u2r = s2 * d1r - s1 * d2r;
      const u2i = s2 * d1i - s1 * d2i;
      outRe[i0] = a0r + b1r + b2r;
      outIm[i0] = a0i + b1i + b2i;
      // X1 = t1 − i·u1, X4 = t1 + i·u1, X2 = t2 − i·u2, X3 = t2 + i·u2.
      outRe[i1] = t1r + u1i;
      outIm[i1] = t1i - u1r;
      outRe[i4] = t1r - u1i;
      outIm[i4] = t1i + u1r;
      outRe[i2] = t2r + u2i;
      outIm[i2] = t2i - u2r;
      outRe[i3] = t2r - u2i;
      outIm[i3] = t2i + u2r;
    }
}

/** Any other (odd prime) factor: a DFT of the gathered inputs, two outputs per pass. */
function genericLevel(plan: MixedPlan, level: number, len: number, m: number, tw: number): void {
  const { outRe, outIm, cos, sin, n } = plan;
  const p = plan.factors[level];
  const { tRe, tIm } = plan;
  const dc = plan.dftCos[level] as Float64Array;
  const ds = plan.dftSin[level] as Float64Array;
  for (let outOff = 0; outOff < n; outOff += len)
    for (let k = 0; k < m; k++) {
      for (let s = 0; s < p; s++) {
        const i = outOff + s * m + k;
        const w = ((s * k) % len) * tw;
        tRe[s] = outRe[i] * cos[w] - outIm[i] * sin[w];
        tIm[s] = outRe[i] * sin[w] + outIm[i] * cos[w];
      }
      // Two outputs per pass over the inputs: each keeps its own sums in the same order as alone, and
      // the pair gives the CPU two independent add chains. p is an odd prime here (factorize takes out
      // 4s and 2s, and 3 and 5 have their own butterflies), so output 0 goes first on its own.
      {
        let re = tRe[0];
        let im = tIm[0];
        for (let s = 1; s < p; s++) {
          re += tRe[s] * dc[s] - tIm[s] * ds[s];
          im += tRe[s] * ds[s] + tIm[s] * dc[s];
        }
        outRe[outOff + k] = re;
        outIm[outOff + k] = im;
      }
      for (let q = 1; q < p; q += 2) {
        const a = q * p;
        const b = a + p;
        let re0 = tRe[0];
        let im0 = tIm[0];
        let re1 = re0;
        let im1 = im0;
        for (let s = 1; s < p; s++) {
          const xr = tRe[s];
          const xi = tIm[s];
          const c0 = dc[a + s];
          const s0 = ds[a + s];
          const c1 = dc[b + s];
          const s1 = ds[b + s];
          re0 += xr * c0 - xi * s0;
          im0 += xr * s0 + xi * c0;
          re1 += xr * c1 - xi * s1;
          im1 += xr * s1 + xi * c1;
        }
        outRe[outOff + q * m + k] = re0;
        outIm[outOff + q * m + k] = im0;
        outRe[outOff + (q + 1) * m + k] = re1;
        outIm[outOff + (q + 1) * m + k] = im1;
      }
    }
}

/** Forward FFT of re/im (length plan.n) in place. */
export function fftInPlace(plan: FftPlan, re: Float64Array, im: Float64Array): void {
  if (plan.kind === 'mixed') {
    if (plan.n === 1) return;
    mixedTransform(plan, re, im);
    re.set(plan.outRe.subarray(0, plan.n));
    im.set(plan.outIm.subarray(0, plan.n));
    return;
  }
  const { n, inner, wRe, wIm, bRe, bIm, aRe, aIm } = plan;
  const size = inner.n;
  for (let k = 0; k < n; k++) {
    aRe[k] = re[k] * wRe[k] - im[k] * wIm[k];
    aIm[k] = re[k] * wIm[k] + im[k] * wRe[k];
  }
  aRe.fill(0, n, size);
  aIm.fill(0, n, size);
  fftInPlace(inner, aRe, aIm);
  // Pointwise product with the kernel, conjugated so that a forward FFT computes the inverse one
  // (ifft(v) = conj(fft(conj(v)))/N; the 1/N is folded into b).
  for (let k = 0; k < size; k++) {
    const r = aRe[k] * bRe[k] - aIm[k] * bIm[k];
    const i = aRe[k] * bIm[k] + aIm[k] * bRe[k];
    aRe[k] = r;
    aIm[k] = -i;
  }
  fftInPlace(inner, aRe, aIm);
  for (let k = 0; k < n; k++) {
    const cr = aRe[k];
    const ci = -aIm[k];
    re[k] = cr * wRe[k] - ci * wIm[k];
    im[k] = cr * wIm[k] + ci * wRe[k];
  }
}
