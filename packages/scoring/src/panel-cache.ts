import { canonicalJson, sha256Hex } from '@asof/manifest';
import { scorerCodeSha256 } from './baseline-cache.ts';
import { type EvaluationPanel, originKeyOf } from './build-evaluation-panel.ts';
import type { ScoringWindow, TaskRow } from './score-types.ts';

/** Bumped when the encoding below changes. */
// 2: the drift's first-observation steps and the random walk's volatility history (issue 51).
const FORMAT = 2;

/**
 * The key of a split's panel as the scorer reads it (readSplitTables, buildEvaluationPanel): the split's
 * dataset_id (its manifest, and so every file's sha256, verified before this is asked) and the scorer's code,
 * which decides how the files become a panel.
 */
export function splitPanelKey(datasetId: string): string {
  return sha256Hex(
    canonicalJson({
      kind: 'split-panel',
      format: FORMAT,
      dataset_id: datasetId,
      scorer_code_sha256: scorerCodeSha256(),
    }),
  );
}

interface PanelHeader {
  format: number;
  seriesIds: string[];
  originIso: string[];
  originLabel: (string | null)[] | null;
  originWindow: (ScoringWindow | null)[] | null;
  /** Each origin's history tail length, −1 for none; the same for the tails' grid steps back. */
  tails: number[];
  backs: number[];
  /** The same for the history before the tail (the volatility window) and its grid steps back. */
  befores: number[];
  beforeBacks: number[];
  points: number;
  tasks: TaskRow[] | null;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * A panel (and the split's own tasks) as bytes: a little-endian u32 header length, the header (JSON: the
 * texts, tail lengths, tasks), zero padding to 8 bytes, then the float64 columns, the tails, and the int32
 * columns last. The exact bits: a panel read back scores to the same bytes as the panel read from the files.
 */
export function encodeSplitPanel(panel: EvaluationPanel, tasks: readonly TaskRow[] | null): Uint8Array {
  const n = panel.horizon.length;
  const header: PanelHeader = {
    format: FORMAT,
    seriesIds: panel.seriesIds,
    originIso: panel.originIso,
    originLabel: panel.originLabel ? panel.originLabel.map((x) => x ?? null) : null,
    originWindow: panel.originWindow ? panel.originWindow.map((x) => x ?? null) : null,
    tails: panel.historyTail.map((t) => (t ? t.length : -1)),
    backs: panel.historyTailBack.map((t) => (t ? t.length : -1)),
    befores: panel.historyBefore.map((t) => (t ? t.length : -1)),
    beforeBacks: panel.historyBeforeBack.map((t) => (t ? t.length : -1)),
    points: panel.actual.length,
    tasks: tasks ? [...tasks] : null,
  };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const parts: ArrayBufferView[] = [
    panel.originTime,
    panel.originIndex,
    panel.lastValue,
    panel.historyFirst,
    panel.historyFirstBack,
    panel.targetOffset,
    panel.actual,
  ];
  for (let o = 0; o < n; o++) {
    for (const a of [
      panel.historyTail[o],
      panel.historyTailBack[o],
      panel.historyBefore[o],
      panel.historyBeforeBack[o],
    ])
      if (a) parts.push(a);
  }
  parts.push(panel.originSeries, panel.horizon, panel.seriesOriginStart);
  const start = Math.ceil((4 + text.length) / 8) * 8;
  const out = new Uint8Array(start + parts.reduce((s, p) => s + p.byteLength, 0));
  new DataView(out.buffer).setUint32(0, text.length, true);
  out.set(text, 4);
  let at = start;
  for (const p of parts) {
    out.set(bytesOf(p), at);
    at += p.byteLength;
  }
  return out;
}

/** The panel and tasks back from encodeSplitPanel's bytes, or null when they do not decode. */
export function decodeSplitPanel(
  bytes: Uint8Array,
): { panel: EvaluationPanel; tasks: TaskRow[] | null } | null {
  if (bytes.length < 4) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  let h: PanelHeader;
  try {
    h = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
  } catch {
    return null;
  }
  if (h.format !== FORMAT) return null;
  const n = h.originIso.length;
  let at = Math.ceil((4 + length) / 8) * 8;
  let short = false;
  // Copies: the bytes' offset need not be aligned, and the arrays outlive the buffer read.
  const take = <T extends Float64Array | Int32Array>(make: (k: number) => T, count: number): T => {
    const a = make(count);
    const size = a.byteLength;
    if (at + size > bytes.length) short = true;
    else bytesOf(a).set(bytes.subarray(at, at + size));
    at += size;
    return a;
  };
  const f64 = (k: number) => take((c) => new Float64Array(c), k);
  const originTime = f64(n);
  const originIndex = f64(n);
  const lastValue = f64(n);
  const historyFirst = f64(n);
  const historyFirstBack = f64(n);
  const targetOffset = f64(n + 1);
  const actual = f64(h.points);
  const historyTail: (Float64Array | null)[] = new Array(n);
  const historyTailBack: (Float64Array | null)[] = new Array(n);
  const historyBefore: (Float64Array | null)[] = new Array(n);
  const historyBeforeBack: (Float64Array | null)[] = new Array(n);
  const column = (k: number) => (k < 0 ? null : f64(k));
  for (let o = 0; o < n; o++) {
    historyTail[o] = column(h.tails[o]);
    historyTailBack[o] = column(h.backs[o]);
    historyBefore[o] = column(h.befores[o]);
    historyBeforeBack[o] = column(h.beforeBacks[o]);
  }
  const i32 = (k: number) => take((c) => new Int32Array(c), k);
  const originSeries = i32(n);
  const horizon = i32(n);
  const seriesOriginStart = i32(h.seriesIds.length + 1);
  if (short || at !== bytes.length) return null;
  const originKey = new Map<string, number>();
  for (let o = 0; o < n; o++) originKey.set(originKeyOf(originSeries[o], originTime[o]), o);
  const panel: EvaluationPanel = {
    seriesIds: h.seriesIds,
    seriesIndex: new Map(h.seriesIds.map((s, i) => [s, i])),
    seriesOriginStart,
    originSeries,
    originIso: h.originIso,
    originTime,
    ...(h.originLabel ? { originLabel: h.originLabel.map((x) => x ?? undefined) } : {}),
    ...(h.originWindow ? { originWindow: h.originWindow.map((x) => x ?? undefined) } : {}),
    originIndex,
    horizon,
    lastValue,
    historyTail,
    historyTailBack,
    historyFirst,
    historyFirstBack,
    historyBefore,
    historyBeforeBack,
    targetOffset,
    actual,
    originKey,
  };
  return { panel, tasks: h.tasks };
}
