import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyedUniform } from '@asof/prng';
import { CollectingSink, type ObservationRow } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { asOfView } from './as-of-view.ts';
import {
  generateSyntheticEdgar,
  ingestSyntheticEdgar,
  writeSyntheticEdgarRawDir,
} from './generate-synthetic-edgar.ts';
import { ingestEdgarRawDir } from './ingest-edgar-raw-dir.ts';

const sink = new CollectingSink();
const summary = ingestSyntheticEdgar(sink, { seed: 11, companies: 3, fiscalYears: 6 });
const rowsOf = (id: string) => sink.observations.filter((o) => o.series_id === id);
const byPeriod = (rows: ObservationRow[]) => {
  const m = new Map<number, ObservationRow[]>();
  for (const r of rows) m.set(r.timestamp, [...(m.get(r.timestamp) ?? []), r]);
  return m;
};

describe('keyedUniform', () => {
  it('is a pure function of (seed, stream, step), uniform-looking in [0, 1)', () => {
    const a = [0, 1, 2, 3].map((i) => keyedUniform(5, 's', i));
    const b = [3, 2, 1, 0].map((i) => keyedUniform(5, 's', i)).reverse();
    expect(a).toEqual(b);
    expect(keyedUniform(5, 's', 0)).not.toBe(keyedUniform(6, 's', 0));
    const xs = Array.from({ length: 4000 }, (_, i) => keyedUniform('seed', 'x', i));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((p, x) => p + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.02);
  });
});

describe('generateSyntheticEdgar', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = JSON.stringify(generateSyntheticEdgar({ seed: 3, companies: 2 }));
    expect(JSON.stringify(generateSyntheticEdgar({ seed: 3, companies: 2 }))).toBe(a);
    expect(JSON.stringify(generateSyntheticEdgar({ seed: 4, companies: 2 }))).not.toBe(a);
  });

  it('runs through the EDGAR parser: syn: ids, every company ingested, overflow pages followed', () => {
    expect(summary.ingested).toBe(3);
    expect(sink.warnings).toEqual([]);
    expect(summary.companies.every((c) => c.facts_dated_by_filed === 0 && c.series === 28)).toBe(true);
    expect(sink.series.every((s) => s.series_id.startsWith('syn:edgar:') && s.is_synthetic)).toBe(true);
    expect(new Set(sink.series.map((s) => s.fiscal_year_end))).toEqual(new Set(['1231', '0930', '0131']));
  });

  it('has a 10-K/A that restates a fiscal year, revising the derived Q4', () => {
    const files = generateSyntheticEdgar({ seed: 11, companies: 3, fiscalYears: 6 });
    const subs = files.find((f) => f.name === 'submissions_CIK9990000001_SYNA.json')!.json as {
      filings: { recent: { form: string[]; accessionNumber: string[] } };
    };
    const i = subs.filings.recent.form.indexOf('10-K/A');
    expect(i).toBeGreaterThanOrEqual(0);
    const amendment = subs.filings.recent.accessionNumber[i];
    const revised = rowsOf('syn:edgar:9990000001:revenue:Q').filter((r) =>
      r.source_ref.includes(`FY(${amendment})`),
    );
    expect(revised).toHaveLength(1);
    const before = rowsOf('syn:edgar:9990000001:revenue:Q').filter(
      (r) => r.timestamp === revised[0].timestamp,
    );
    expect(before).toHaveLength(2);
    expect(before[1].value).toBeLessThan(before[0].value);
    const fy = rowsOf('syn:edgar:9990000001:revenue:A').filter((r) => r.source_ref === amendment);
    expect(fy).toHaveLength(1);
  });

  it('re-expresses EPS after the 4:1 split as new vintages, never overwriting the first release', () => {
    const split = [...byPeriod(rowsOf('syn:edgar:9990000002:eps-diluted:A')).values()].filter(
      (rows) => rows.length > 1,
    );
    expect(split.length).toBeGreaterThan(0);
    for (const rows of split) expect(rows[rows.length - 1].value).toBeCloseTo(rows[0].value / 4, 1);
    const shares = [...byPeriod(rowsOf('syn:edgar:9990000002:shares-diluted:A')).values()].filter(
      (r) => r.length > 1,
    );
    for (const rows of shares) expect(rows[rows.length - 1].value / rows[0].value).toBeCloseTo(4, 6);
    // Neither split nor amended: comparatives re-filed unchanged add no rows.
    expect(rowsOf('syn:edgar:9990000003:eps-diluted:A').length).toBe(
      byPeriod(rowsOf('syn:edgar:9990000003:eps-diluted:A')).size,
    );
  });

  it('latest view: Q1 + Q2 + Q3 + Q4 (derived) = FY for revenue', () => {
    const latest = asOfView(sink.observations, Number.MAX_SAFE_INTEGER);
    const q = latest.filter((o) => o.series_id === 'syn:edgar:9990000003:revenue:Q');
    const a = latest.filter((o) => o.series_id === 'syn:edgar:9990000003:revenue:A');
    let checked = 0;
    for (const fy of a) {
      const inside = q.filter((o) => o.timestamp <= fy.timestamp && o.period_start! >= fy.period_start!);
      if (inside.length !== 4) continue;
      expect(inside.reduce((s, o) => s + o.value, 0)).toBe(fy.value);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('a written raw directory replays to the same rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asof-edgar-syn-'));
    try {
      await writeSyntheticEdgarRawDir(dir, { seed: 11, companies: 3, fiscalYears: 6 });
      const replay = new CollectingSink();
      await ingestEdgarRawDir(dir, replay, { isSynthetic: true });
      expect(replay.observations).toEqual(sink.observations);
      expect(replay.inputs).toEqual(sink.inputs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
