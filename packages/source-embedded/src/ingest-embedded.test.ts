import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { microsToIso } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { ingestEmbedded } from './ingest-embedded.ts';
import { vegaDataDir } from './read-vega-real.ts';

const REAL = { sp500: true, stocks: true, us_employment: true, unemployment_by_industry: true };

describe('embedded real data (vega-datasets)', () => {
  const sink = new CollectingSink();
  ingestEmbedded({ real: REAL }, sink);
  const byId = (prefix: string) => sink.series.filter((s) => s.series_id.startsWith(prefix));

  it('has the series the default build promises', () => {
    expect(byId('vega:sp500:')).toHaveLength(5);
    expect(byId('vega:stocks:')).toHaveLength(5);
    expect(byId('vega:us-employment:')).toHaveLength(22);
    expect(byId('vega:unemployment:')).toHaveLength(14);
    expect(sink.series.every((s) => s.universe_kind === 'static' && !s.is_synthetic)).toBe(true);
    expect(sink.inputs.map((i) => i.key).sort()).toEqual([
      'sp500-2000.csv',
      'stocks.csv',
      'unemployment-across-industries.json',
      'us-employment.csv',
    ]);
  });

  it('accounts for every row of every file: all mapped, read = the rows counted from the file', () => {
    const dir = vegaDataDir();
    const csvRows = (name: string) =>
      readFileSync(join(dir, name), 'utf8')
        .split('\n')
        .filter((l) => l.trim()).length - 1;
    const expected: Record<string, number> = {
      'sp500-2000.csv': csvRows('sp500-2000.csv'),
      'stocks.csv': csvRows('stocks.csv'),
      'us-employment.csv': csvRows('us-employment.csv'),
      'unemployment-across-industries.json': JSON.parse(
        readFileSync(join(dir, 'unemployment-across-industries.json'), 'utf8'),
      ).length,
    };
    expect(Object.fromEntries(sink.accounting.map((a) => [a.file, a.read]))).toEqual(expected);
    for (const a of sink.accounting)
      expect(a).toMatchObject({ source: 'vega-datasets', mapped: a.read, dropped: {} });
  });

  it('applies the release rules of docs/decisions/0004', () => {
    const bar = sink.observations.find((o) => o.series_id === 'vega:sp500:close')!;
    expect(microsToIso(bar.timestamp)).toBe('2000-01-03T21:00:00.000000Z');
    expect(bar.available_at).toBe(bar.timestamp);
    const jan = sink.observations.find((o) => o.series_id === 'vega:us-employment:nonfarm')!;
    // January 2006 payrolls: period end 2006-01-31 23:59:59.999999 EST; first Friday of February 2006 = Feb 3.
    expect(microsToIso(jan.timestamp)).toBe('2006-02-01T04:59:59.999999Z');
    expect(microsToIso(jan.available_at)).toBe('2006-02-03T13:30:00.000000Z');
  });

  it('names the file, line and field of a non-numeric value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asof-vega-'));
    for (const f of [
      'sp500-2000.csv',
      'stocks.csv',
      'us-employment.csv',
      'unemployment-across-industries.json',
    ]) {
      copyFileSync(join(vegaDataDir(), f), join(dir, f));
    }
    const lines = readFileSync(join(dir, 'us-employment.csv'), 'utf8').split('\n');
    lines[5] = lines[5].replace(/^([^,]+),[^,]+,/, '$1,12x45,');
    writeFileSync(join(dir, 'us-employment.csv'), lines.join('\n'));
    expect(() => ingestEmbedded({ real: { ...REAL, vega_dir: dir } }, new CollectingSink())).toThrow(
      /us-employment\.csv line 6, field 'nonfarm': expected a number, got "12x45"/,
    );
  });
});

describe('synthetic universe', () => {
  const sink = new CollectingSink();
  ingestEmbedded({ synthetic: { seed: 7, start: '2015-01-01', end: '2019-12-31', instruments: 10 } }, sink);

  it('is deterministic for a seed', () => {
    const again = new CollectingSink();
    ingestEmbedded(
      { synthetic: { seed: 7, start: '2015-01-01', end: '2019-12-31', instruments: 10 } },
      again,
    );
    expect(again.observations).toEqual(sink.observations);
  });

  it('keeps OHLC consistent and bars available at their close', () => {
    const rows = sink.observations.filter((o) => o.series_id.startsWith('syn:px:EQ0001:'));
    const at = new Map<number, Record<string, number>>();
    for (const r of rows) {
      const f = r.series_id.split(':')[3];
      at.set(r.timestamp, { ...(at.get(r.timestamp) ?? {}), [f]: r.value });
      expect(r.available_at).toBe(r.timestamp);
    }
    for (const bar of at.values()) {
      expect(bar.high).toBeGreaterThanOrEqual(Math.max(bar.open, bar.close) - 1e-4);
      expect(bar.low).toBeLessThanOrEqual(Math.min(bar.open, bar.close) + 1e-4);
      expect(bar.low).toBeGreaterThan(0);
    }
  });
});
