import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson, sha256Hex } from '@asof/manifest';
import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import type { FittedBaselineNotes } from './make-baseline-forecasts.ts';

/**
 * Where the scorer keeps what it derives from a split between scores (docs/decisions/0054): the split's panel
 * as read, its own baselines, and which submitted files held only those baselines. The scorer gives and takes
 * bytes under keys it makes; the store (packages/cli score-cache.ts) decides where they live, writes them
 * under asof's output rules and verifies each entry's sha256 before handing it back.
 */
export interface ScoreStore {
  /** The verified bytes stored under `key`, or null (none, or one that failed its hash check). */
  get(key: string): Uint8Array | null;
  /** Stores `bytes` under `key` (best effort: a store that cannot write only loses the reuse). */
  put(key: string, bytes: Uint8Array): void;
  /** The models a submitted file held when it was last found equal to the baselines under `key`. */
  acceptedFile?(key: string, sha256: string): string[] | null;
  /** Records that the file with `sha256` held only `models`, each equal to the baselines under `key`. */
  acceptFile?(key: string, sha256: string, models: readonly string[]): void;
}

/** Bumped when the encoding below changes (old entries are then never read: their keys differ). */
const FORMAT = 2;

let codeSha: string | undefined;

/**
 * sha256 of the scoring package's own code (every non-test .ts under src/ and its package.json): any change
 * to how a baseline is made gives new keys, so an entry written by other code is never reused. The package
 * version alone would not see a change made without a version bump.
 */
export function scorerCodeSha256(): string {
  if (codeSha) return codeSha;
  const src = fileURLToPath(new URL('./', import.meta.url));
  const hash = createHash('sha256');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) files.push(p);
    }
  };
  walk(src);
  files.push(join(src, '..', 'package.json'));
  for (const f of files.sort()) {
    hash.update(`${relative(src, f)}\u0000`);
    hash.update(readFileSync(f));
    hash.update('\u0000');
  }
  codeSha = hash.digest('hex');
  return codeSha;
}

/** sha256 of every panel column a baseline reads (the origins, their horizons and history), in order. */
function panelInputsSha256(panel: EvaluationPanel): string {
  const hash = createHash('sha256');
  const bytes = (a: ArrayBufferView) => hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  hash.update(panel.seriesIds.join('\u0000'));
  for (const a of [
    panel.originSeries,
    panel.originTime,
    panel.originIndex,
    panel.horizon,
    panel.lastValue,
    panel.historyFirst,
    panel.historyFirstBack,
  ])
    bytes(a);
  const none = new Float64Array(0);
  for (let o = 0; o < panel.horizon.length; o++) {
    const columns = [
      panel.historyTail[o],
      panel.historyTailBack[o],
      panel.historyBefore[o],
      panel.historyBeforeBack[o],
    ];
    hash.update(`|${columns.map((c) => (c ? c.length : -1)).join(',')}|`);
    for (const c of columns) bytes(c ?? none);
  }
  return hash.digest('hex');
}

/** What the scorer's baselines depend on besides its code: the split, the settings, the series' frequencies. */
export interface BaselineKeyParts {
  datasetId: string;
  scorerVersion: string;
  baselines: readonly string[];
  refitEvery: number;
  /** Each panel series' frequency from its tasks (the season length; unscored series have none). */
  seriesFrequency: ArrayLike<string | undefined>;
}

/**
 * The key of one split's baselines: the split's dataset_id, the baseline settings, the scorer's version
 * and code, the series' frequencies and every panel column the baselines read (so a split read another way
 * cannot be served baselines made from other inputs).
 */
export function baselineCacheKey(parts: BaselineKeyParts, panel: EvaluationPanel): string {
  return sha256Hex(
    canonicalJson({
      format: FORMAT,
      dataset_id: parts.datasetId,
      scorer: { version: parts.scorerVersion, code_sha256: scorerCodeSha256() },
      baselines: [...parts.baselines],
      refit_every: parts.refitEvery,
      frequencies: Array.from(parts.seriesFrequency, (f) => f ?? null),
      panel_sha256: panelInputsSha256(panel),
    }),
  );
}

interface EncodedModel {
  model: string;
  levels: number[] | null;
  gaussianQuantiles: boolean;
  /** The origins a baseline scored only where fitted leaves out (ModelForecasts.covered 0); absent: none. */
  uncovered?: number[];
}

interface EncodedHeader {
  format: number;
  points: number;
  models: EncodedModel[];
  notes: [string, FittedBaselineNotes][];
}

/**
 * The baselines as bytes: a little-endian u32 header length, the header (JSON: models, quantile levels,
 * notes), zero padding to 8 bytes, then each model's point array and quantile array as raw float64 — the
 * exact bits, so a reused baseline scores to the same bytes as a fresh one.
 */
export function encodeBaselines(
  models: readonly ModelForecasts[],
  notes: ReadonlyMap<string, FittedBaselineNotes>,
  points: number,
): Uint8Array {
  const header: EncodedHeader = {
    format: FORMAT,
    points,
    models: models.map((m) => ({
      model: m.model,
      levels: m.quantileLevels,
      gaussianQuantiles: m.gaussianQuantiles === true,
      ...(m.covered ? { uncovered: uncoveredOrigins(m.covered) } : {}),
    })),
    notes: [...notes.entries()],
  };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((4 + text.length) / 8) * 8;
  let size = start;
  for (const m of models) size += 8 * (m.point.length + (m.quantiles?.length ?? 0));
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, text.length, true);
  out.set(text, 4);
  let at = start;
  for (const m of models) {
    for (const a of [m.point, m.quantiles]) {
      if (!a) continue;
      out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
      at += a.byteLength;
    }
  }
  return out;
}

function uncoveredOrigins(covered: Uint8Array): number[] {
  const out: number[] = [];
  for (let o = 0; o < covered.length; o++) if (!covered[o]) out.push(o);
  return out;
}

/**
 * The baselines back from encodeBaselines' bytes, or null when they do not fit the panel and kinds asked
 * for (then they are made afresh).
 */
export function decodeBaselines(
  bytes: Uint8Array,
  points: number,
  kinds: readonly string[],
  /** The panel's origins (the length of a `covered` mask). */
  panelOrigins: number,
): { models: ModelForecasts[]; notes: Map<string, FittedBaselineNotes> } | null {
  if (bytes.length < 4) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  let header: EncodedHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  } catch {
    return null;
  }
  if (
    header.format !== FORMAT ||
    header.points !== points ||
    header.models.map((m) => m.model).join(',') !== kinds.join(',')
  )
    return null;
  let at = Math.ceil((4 + length) / 8) * 8;
  const take = (n: number): Float64Array | null => {
    if (at + 8 * n > bytes.length) return null;
    // A copy: the bytes' offset need not be 8-aligned, and the arrays outlive the buffer read.
    const a = new Float64Array(n);
    new Uint8Array(a.buffer).set(bytes.subarray(at, at + 8 * n));
    at += 8 * n;
    return a;
  };
  const models: ModelForecasts[] = [];
  const origins = panelOrigins;
  for (const m of header.models) {
    let covered: Uint8Array | null = null;
    if (m.uncovered) {
      covered = new Uint8Array(origins).fill(1);
      for (const o of m.uncovered) {
        if (!(Number.isInteger(o) && o >= 0 && o < origins)) return null;
        covered[o] = 0;
      }
    }
    const point = take(points);
    const quantiles = m.levels ? take(points * m.levels.length) : null;
    if (!point || (m.levels && !quantiles)) return null;
    models.push({
      model: m.model,
      baseline: true,
      point,
      quantileLevels: m.levels,
      quantiles,
      sampleCount: 0,
      samples: null,
      ...(m.gaussianQuantiles ? { gaussianQuantiles: true } : {}),
      ...(covered ? { covered } : {}),
    });
  }
  if (at !== bytes.length) return null;
  return { models, notes: new Map(header.notes) };
}
