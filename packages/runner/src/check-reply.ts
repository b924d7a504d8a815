import { firstZodIssue, formatZodIssue, MAX_ABS_VALUE } from '@asof/schema';
import { z } from 'zod';
import { ModelRunError } from './model-run-error.ts';
import { ForecastPath, ForecastReply, ModelError } from './protocol.ts';

/** What the model declared in its hello: quantile levels and sample count every path carries. */
export interface ForecastShape {
  levels: readonly number[];
  samples: number;
}

/** One answered pair: steps 1…H of the point, and K·H quantiles / M·H samples, step-major (k·K + j). */
export interface AnsweredPath {
  series_id: string;
  point: number[];
  quantiles: number[] | null;
  samples: number[] | null;
}

/** A batch's pairs as the checker needs them. */
export interface AskedBatch {
  batch: number;
  originIso: string;
  pairs: readonly { series_id: string; horizon_steps: number }[];
}

const NON_FINITE = /(?<=[:,[]\s*)(-?Infinity|NaN)(?=\s*[,\]}])/g;

/** Text of a value for a message: NaN and Infinity as such (they arrive as the strings the lenient parse made). */
function shown(value: unknown): string {
  if (typeof value === 'string' && /^-?Infinity$|^NaN$/.test(value)) return value;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function clip(line: string): string {
  const one = line.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 80)}…` : one;
}

/**
 * Parses one reply line as JSON. NaN and ±Infinity are not JSON, but Python's json.dumps writes them: such
 * a line is parsed again with those tokens as strings, so the checker can name the series and step that
 * holds one (MODEL_NOT_FINITE) instead of calling the whole line malformed.
 */
export function parseReplyLine(line: string, where: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    if (NON_FINITE.test(line)) {
      NON_FINITE.lastIndex = 0;
      try {
        return JSON.parse(line.replace(NON_FINITE, '"$1"'));
      } catch {
        // fall through: malformed for another reason
      }
    }
    throw new ModelRunError(
      'MODEL_MALFORMED_REPLY',
      `${where}: the model wrote a line that is not JSON: ${JSON.stringify(clip(line))}; write one JSON message per line on stdout (log to stderr)`,
      { context: { line: clip(line) } },
    );
  }
}

/**
 * The model's `error` message as a run failure. When the model names the series it failed on, the message
 * names it (after `origin`, the batch and its origin); otherwise `where` says which batch and series.
 */
export function modelErrorOf(value: unknown, where: string, origin = where): ModelRunError | null {
  if (!value || typeof value !== 'object' || (value as { type?: unknown }).type !== 'error') return null;
  const parsed = ModelError.safeParse(value);
  const message = parsed.success ? parsed.data.message : shown((value as { message?: unknown }).message);
  const at = parsed.success && parsed.data.series_id ? `${origin}, series ${parsed.data.series_id}` : where;
  return new ModelRunError('MODEL_ERROR', `${at}: the model reported an error: ${clip(message)}`, {
    context: { message, series_id: parsed.success ? parsed.data.series_id : undefined },
  });
}

/** Where in a path a zod issue points, in words: "point step 3", "quantile 0.05 step 2", "sample 4 step 1". */
function placeOf(path: readonly PropertyKey[], shape: ForecastShape): string {
  const [field, a, b] = path;
  if (field === 'point' && typeof a === 'number') return `point step ${a + 1}`;
  if (field === 'quantiles' && typeof a === 'number' && typeof b === 'number')
    return `quantile ${shape.levels[a] ?? `#${a + 1}`} step ${b + 1}`;
  if (field === 'samples' && typeof a === 'number' && typeof b === 'number')
    return `sample ${a + 1} step ${b + 1}`;
  return path.length ? path.join('.') : 'the path';
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/**
 * Checks a reply to a predict batch and returns its paths in the batch's order (null for a pair the model
 * skipped). Every failure is a ModelRunError whose one-line message names the batch, its origin and the
 * series: a model error, another message type or batch number, a path for a pair not asked or answered
 * twice, a missing or extra step, NaN or ±Infinity, quantiles or samples other than declared, crossing
 * quantiles, and a pair with no answer.
 */
export function checkForecastReply(
  value: unknown,
  asked: AskedBatch,
  shape: ForecastShape,
  model: string,
): (AnsweredPath | null)[] {
  // Path-level failures name their series; batch-level ones name the batch's series (the first, and how many more).
  const origin = `model ${model}, batch ${asked.batch} (origin ${asked.originIso})`;
  const more = asked.pairs.length > 1 ? ` and ${asked.pairs.length - 1} more` : '';
  const where = `model ${model}, batch ${asked.batch} (origin ${asked.originIso}, series ${asked.pairs[0]?.series_id}${more})`;
  const error = modelErrorOf(value, where, origin);
  if (error) throw error;
  const envelope = ForecastReply.extend({ paths: z.array(z.unknown()) }).safeParse(value);
  if (!envelope.success) {
    const type = (value as { type?: unknown } | null)?.type;
    throw new ModelRunError(
      'MODEL_MALFORMED_REPLY',
      `${where}: expected {"type":"forecast","batch":${asked.batch},"paths":[…]}, got ${type === 'forecast' ? `a forecast with ${formatZodIssue(firstZodIssue(envelope.error))}` : `type ${shown(type)}`}`,
      { context: { batch: asked.batch, origin: asked.originIso } },
    );
  }
  if (envelope.data.batch !== asked.batch) {
    throw new ModelRunError(
      'MODEL_WRONG_BATCH',
      `${where}: the reply is for batch ${envelope.data.batch}; answer each predict with its own batch number, in order`,
      { context: { batch: asked.batch, origin: asked.originIso, value: envelope.data.batch } },
    );
  }
  const index = new Map<string, number>();
  for (let i = 0; i < asked.pairs.length; i++) index.set(asked.pairs[i].series_id, i);
  const out: (AnsweredPath | null | undefined)[] = new Array(asked.pairs.length).fill(undefined);
  for (const raw of envelope.data.paths) {
    const seriesId = (raw as { series_id?: unknown } | null)?.series_id;
    if (typeof seriesId !== 'string') {
      throw new ModelRunError(
        'MODEL_MALFORMED_REPLY',
        `${where}: a path has no series_id (${shown(raw)}); name the series of each path`,
        {
          context: { batch: asked.batch, origin: asked.originIso },
        },
      );
    }
    const at = `${origin}, series ${seriesId}`;
    const i = index.get(seriesId);
    if (i === undefined) {
      throw new ModelRunError(
        'MODEL_UNASKED_PAIR',
        `${at}: the batch does not ask for this series; answer only the batch's tasks`,
        {
          context: { batch: asked.batch, origin: asked.originIso, series_id: seriesId },
        },
      );
    }
    if (out[i] !== undefined) {
      throw new ModelRunError(
        'MODEL_DUPLICATE_PAIR',
        `${at}: answered twice in one reply; send one path per task`,
        {
          context: { batch: asked.batch, origin: asked.originIso, series_id: seriesId },
        },
      );
    }
    out[i] = checkPath(raw, asked.pairs[i].horizon_steps, shape, at, {
      batch: asked.batch,
      origin: asked.originIso,
      series_id: seriesId,
    });
  }
  const missing = out.indexOf(undefined);
  if (missing !== -1) {
    const n = out.filter((p) => p === undefined).length;
    throw new ModelRunError(
      'MODEL_MISSING_PAIR',
      `${origin}, series ${asked.pairs[missing].series_id}: no path${n > 1 ? ` (nor for ${n - 1} more)` : ''}; answer every task of the batch, with {"series_id":…,"skip":true} for one you do not forecast`,
      {
        context: {
          batch: asked.batch,
          origin: asked.originIso,
          series_id: asked.pairs[missing].series_id,
          missing: n,
        },
      },
    );
  }
  return out as (AnsweredPath | null)[];
}

function checkPath(
  raw: unknown,
  horizon: number,
  shape: ForecastShape,
  at: string,
  context: Record<string, unknown>,
): AnsweredPath | null {
  const parsed = ForecastPath.safeParse(raw);
  if (!parsed.success) {
    // The union's branches both fail: report the forecast branch's first issue (or a stray skip).
    const issue = firstZodIssue(parsed.error);
    const value = valueAt(raw, issue.path);
    const place = placeOf(issue.path, shape);
    const nonFinite =
      (typeof value === 'string' && /^-?Infinity$|^NaN$/.test(value)) ||
      (typeof value === 'number' && !Number.isFinite(value));
    if (nonFinite || (issue.path.length >= 2 && value === null)) {
      throw new ModelRunError(
        'MODEL_NOT_FINITE',
        `${at}: ${place} is ${shown(value)}; every value must be a finite number`,
        {
          context: { ...context, place },
        },
      );
    }
    throw new ModelRunError(
      'MODEL_MALFORMED_REPLY',
      `${at}: ${place}${value === undefined ? '' : ` = ${shown(value)}`}: ${issue.message}; a path is {"series_id":…,"point":[H numbers]${shape.levels.length ? ',"quantiles":[[H numbers] per level]' : ''}${shape.samples ? ',"samples":[[H numbers] per sample]' : ''}}`,
      { context: { ...context, place } },
    );
  }
  const path = parsed.data;
  if ('skip' in path) return null;
  const steps = (label: string, list: readonly number[]) => {
    if (list.length < horizon) {
      throw new ModelRunError(
        'MODEL_MISSING_STEP',
        `${at}: ${label} has ${list.length} step(s), missing step ${list.length + 1} of 1…${horizon}; answer every step`,
        { context: { ...context, step: list.length + 1, horizon } },
      );
    }
    if (list.length > horizon) {
      throw new ModelRunError(
        'MODEL_EXTRA_STEP',
        `${at}: ${label} has ${list.length} steps, but the horizon is ${horizon}; answer steps 1…${horizon}`,
        {
          context: { ...context, horizon },
        },
      );
    }
  };
  steps('point', path.point);
  // Bounded as observations are (±1e15, docs/decisions/0058): the scorer refuses a larger value, and its
  // metrics would overflow on one; said here with the step, before a forecasts file holds it.
  const bounded = (place: string, v: number) => {
    if (Math.abs(v) < MAX_ABS_VALUE) return;
    throw new ModelRunError(
      'MODEL_VALUE_TOO_LARGE',
      `${at}: ${place} is ${v}, beyond ±1e15, larger than any value asof holds; forecast the series in its own units`,
      { context: { ...context, place, value: v } },
    );
  };
  for (let k = 0; k < horizon; k++) bounded(`point step ${k + 1}`, path.point[k]);
  const K = shape.levels.length;
  let quantiles: number[] | null = null;
  if (K || path.quantiles) {
    if (!path.quantiles || path.quantiles.length !== K) {
      throw new ModelRunError(
        'MODEL_WRONG_QUANTILES',
        `${at}: ${path.quantiles ? `${path.quantiles.length} quantile arrays` : 'no quantiles'}, but the model declared ${K} level(s) in hello (${shape.levels.join(', ') || 'none'}); send one array per declared level`,
        { context },
      );
    }
    quantiles = new Array(K * horizon);
    for (let j = 0; j < K; j++) {
      steps(`quantile ${shape.levels[j]}`, path.quantiles[j]);
      for (let k = 0; k < horizon; k++) {
        const q = path.quantiles[j][k];
        bounded(`quantile ${shape.levels[j]} step ${k + 1}`, q);
        if (j > 0 && q < quantiles[k * K + j - 1]) {
          throw new ModelRunError(
            'MODEL_QUANTILES_CROSS',
            `${at}: step ${k + 1}: quantile ${shape.levels[j]} (${q}) is below quantile ${shape.levels[j - 1]} (${quantiles[k * K + j - 1]}); quantiles must not decrease with the level`,
            { context: { ...context, step: k + 1 } },
          );
        }
        quantiles[k * K + j] = q;
      }
    }
  }
  const M = shape.samples;
  let samples: number[] | null = null;
  if (M || path.samples) {
    if (!path.samples || path.samples.length !== M) {
      throw new ModelRunError(
        'MODEL_WRONG_SAMPLES',
        `${at}: ${path.samples ? `${path.samples.length} sample paths` : 'no samples'}, but the model declared ${M} in hello; send exactly that many`,
        { context },
      );
    }
    samples = new Array(M * horizon);
    for (let m = 0; m < M; m++) {
      steps(`sample ${m + 1}`, path.samples[m]);
      for (let k = 0; k < horizon; k++) {
        bounded(`sample ${m + 1} step ${k + 1}`, path.samples[m][k]);
        samples[k * M + m] = path.samples[m][k];
      }
    }
  }
  return { series_id: path.series_id, point: path.point, quantiles, samples };
}
