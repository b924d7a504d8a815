import { isoToMicros, microsToIso } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { generateSyntheticAlfred, ingestSyntheticAlfred } from './generate-synthetic-alfred.ts';

describe('generateSyntheticAlfred', () => {
  it('is deterministic in the seed and differs across seeds', () => {
    const a = generateSyntheticAlfred({ seed: 7, months: 48 });
    const b = generateSyntheticAlfred({ seed: 7, months: 48 });
    const c = generateSyntheticAlfred({ seed: 8, months: 48 });
    expect(a.files.map((f) => [f.name, Buffer.from(f.bytes).toString('base64')])).toEqual(
      b.files.map((f) => [f.name, Buffer.from(f.bytes).toString('base64')]),
    );
    expect(Buffer.from(a.files[5].bytes).equals(Buffer.from(c.files[5].bytes))).toBe(false);
    // A subset is the same series as in the full run (counter-based: no dependence on the other series).
    const sub = generateSyntheticAlfred({ seed: 7, months: 48, series: ['SYNGDP'] });
    const obs = (s: typeof a) =>
      s.files.find((f) => f.name === 'fred_api_series_observations_SYNGDP_all_vintages.json')!;
    expect(Buffer.from(obs(sub).bytes).equals(Buffer.from(obs(a).bytes))).toBe(true);
  });

  it('ingests through the ALFRED parser with revisions, missing values and release times', () => {
    const sink = new CollectingSink();
    const summary = ingestSyntheticAlfred(sink, { seed: 42 });
    expect(summary.series).toHaveLength(20);
    expect(sink.series.every((s) => s.series_id.startsWith('syn:fred:') && s.is_synthetic)).toBe(true);
    expect(sink.series.every((s) => s.universe_kind === 'point_in_time')).toBe(true);
    expect(new Set(sink.series.map((s) => s.frequency))).toEqual(new Set(['M', 'Q']));
    const total = summary.series.reduce((n, s) => n + s.revisions, 0);
    expect(total).toBeGreaterThan(1000);
    expect(summary.series.reduce((n, s) => n + s.missing, 0)).toBeGreaterThan(0);
    expect(
      sink.observations.every((o) => Number.isFinite(o.value) && o.available_at_basis === 'vintage'),
    ).toBe(true);
    // Every value becomes public after its period ends; CPI-like releases come out at 08:30 New York time.
    for (const o of sink.observations) expect(o.available_at).toBeGreaterThan(o.timestamp);
    const cpi = sink.observations.filter((o) => o.series_id === 'syn:fred:SYNCPI');
    const hm = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const o of cpi) expect(hm.format(new Date(o.available_at / 1000))).toBe('08:30');
    expect(microsToIso(cpi[0].timestamp)).toBe('2000-02-01T04:59:59.999999Z');
    expect(sink.inputs.every((i) => i.source === 'fred-synthetic')).toBe(true);
    // Exactly one withdrawal: SYNGDP's first quarter, by a July release, after values were published for it.
    expect(sink.withdrawals).toHaveLength(1);
    const [w] = sink.withdrawals;
    expect([w.series_id, microsToIso(w.timestamp), w.available_at_basis]).toEqual([
      'syn:fred:SYNGDP',
      '2000-04-01T04:59:59.999999Z', // 2000Q1 ends 2000-03-31 23:59:59.999999 EST
      'vintage',
    ]);
    expect(w.source_ref).toMatch(/^alfred:\d{4}-07-\d{2}$/);
    const before = sink.observations.filter(
      (o) => o.series_id === w.series_id && o.timestamp === w.timestamp,
    );
    expect(before.length).toBeGreaterThan(0);
    for (const o of before) expect(o.available_at).toBeLessThan(w.available_at);
    expect(summary.series.find((s) => s.fredId === 'SYNGDP')?.withdrawals).toBe(1);
  });

  it('follows the pipeline window and count: 24 series, quarters aligned, nothing published after end', () => {
    const sink = new CollectingSink();
    const summary = ingestSyntheticAlfred(sink, {
      seed: 20260101,
      start: '2005-01-03',
      end: '2007-12-31',
      count: 24,
    });
    expect(summary.series.map((s) => s.fredId)).toContain('SYNCPI2');
    expect(summary.series).toHaveLength(24);
    const end = isoToMicros('2008-01-01T04:59:59.999999Z');
    for (const o of sink.observations) expect(o.available_at).toBeLessThanOrEqual(end);
    const gdp = sink.observations.filter((o) => o.series_id === 'syn:fred:SYNGDP');
    expect(microsToIso(Math.min(...gdp.map((o) => o.period_start!)))).toBe('2005-01-01T05:00:00.000000Z');
    const stamps = new Set(gdp.map((o) => o.timestamp));
    expect(stamps.size).toBeGreaterThanOrEqual(10);
    expect(stamps.size).toBeLessThanOrEqual(11); // 2007Q4 is first released after end
  });
});
