import { Duck } from '@asof/duck';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSegmentModel } from './run-segment-model.ts';

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open();
  await duck.run(
    `CREATE TABLE segments (series_id VARCHAR, segment INTEGER, frequency VARCHAR, detail_category VARCHAR,
       first_timestamp TIMESTAMPTZ, last_timestamp TIMESTAMPTZ, label VARCHAR, quota_label VARCHAR,
       adf_stat DOUBLE, acf1 DOUBLE, forecastability DOUBLE, member BOOLEAN)`,
  );
  await duck.run(
    `CREATE TABLE universe_series (series_id VARCHAR, scope VARCHAR, category VARCHAR, detail_category VARCHAR,
       entity_id VARCHAR, eval_target BOOLEAN)`,
  );
  await duck.run(
    'CREATE TABLE price_fields (scope VARCHAR, category VARCHAR, detail_category VARCHAR, field VARCHAR)',
  );
  for (const f of ['open', 'high', 'low', 'close', 'volume']) {
    const cap = `${f[0].toUpperCase()}${f.slice(1)}`;
    await duck.run(`INSERT INTO price_fields VALUES ('Individual', 'Equity', $d, $f)`, {
      d: `Equity OHLCV ${cap}`,
      f,
    });
  }
  await duck.run(
    `INSERT INTO price_fields VALUES ('Country', 'Market Indicators', 'US Equity Index', 'close'),
       ('Country', 'Market Indicators', 'US Equity Index OHLCV Open', 'open')`,
  );
});
afterEach(() => duck.close());

/** A series with segments 0 and 1 (quota label 'uptrend', characteristics defined unless `adf` is null). */
async function series(
  id: string,
  o: { entity: string | null; detail: string; evalTarget: boolean; scope?: string; category?: string },
  adf: number | null = -5,
): Promise<void> {
  await duck.run('INSERT INTO universe_series VALUES ($id, $s, $c, $d, $e, $t)', {
    id,
    s: o.scope ?? 'Individual',
    c: o.category ?? 'Equity',
    d: o.detail,
    e: o.entity,
    t: o.evalTarget,
  });
  for (const seg of [0, 1]) {
    await duck.run(
      `INSERT INTO segments VALUES ($id, $seg, 'BD', $d, NULL, NULL, 'volatile', 'uptrend', $adf, 0.1, 0.1, true)`,
      { id, seg, d: o.detail, adf },
    );
  }
}

async function candidates(field: string): Promise<{ series_id: string; instrument: string }[]> {
  await runSegmentModel(duck, 'fintsb_candidates', { frequency: 'BD', field, label_mode: 'quota' });
  return duck.all('SELECT DISTINCT series_id, instrument FROM fintsb_candidates ORDER BY series_id');
}

describe('fintsb_candidates model', () => {
  it('keeps one series of one field per instrument and segment, of evaluated instruments only', async () => {
    // Instrument A: five OHLCV fields, and a total-return index beside its as-traded close.
    for (const f of ['Open', 'High', 'Low', 'Close', 'Volume'])
      await series(`px:A:${f.toLowerCase()}`, {
        entity: 'ticker:A',
        detail: `Equity OHLCV ${f}`,
        evalTarget: f === 'Close',
      });
    await series('px:A:tr', { entity: 'ticker:A', detail: 'Equity OHLCV Close', evalTarget: true });
    // Instrument B: an as-traded and a vendor-adjusted history of the same close.
    await series('px:B:close', { entity: 'ticker:B', detail: 'Equity OHLCV Close', evalTarget: true });
    await series('pxadj:B:close', { entity: 'ticker:B', detail: 'Equity OHLCV Close', evalTarget: true });
    // Instrument C: no eval target at all (e.g. a monthly close the registry does not evaluate).
    await series('px:C:close', { entity: 'ticker:C', detail: 'Equity OHLCV Close', evalTarget: false });
    // Instrument D: its close has undefined characteristics.
    await series('px:D:close', { entity: 'ticker:D', detail: 'Equity OHLCV Close', evalTarget: true }, null);
    // An index without entity_id: each series is its own instrument.
    const index = { entity: null, scope: 'Country', category: 'Market Indicators', evalTarget: false };
    await series('vega:sp500:close', { ...index, detail: 'US Equity Index', evalTarget: true });
    await series('vega:sp500:open', { ...index, detail: 'US Equity Index OHLCV Open' });
    // A non-price series on the same grid: not part of a FinTSB cross-section.
    await series('fred:DGS10', {
      entity: null,
      scope: 'Country',
      category: 'Fixed Income',
      detail: 'Treasury Yield',
      evalTarget: true,
    });

    expect(await candidates('close')).toEqual([
      { series_id: 'px:A:tr', instrument: 'ticker:A' },
      { series_id: 'px:B:close', instrument: 'ticker:B' },
      { series_id: 'vega:sp500:close', instrument: 'vega:sp500:close' },
    ]);
    const perSegment = await duck.all<{ n: bigint; instruments: bigint }>(
      'SELECT count(*) AS n, count(DISTINCT instrument) AS instruments FROM fintsb_candidates GROUP BY segment',
    );
    expect(perSegment.map((r) => [Number(r.n), Number(r.instruments)])).toEqual([
      [3, 3],
      [3, 3],
    ]);
    // Another field of the same evaluated instruments; the index open is its own, unevaluated instrument.
    expect(await candidates('open')).toEqual([{ series_id: 'px:A:open', instrument: 'ticker:A' }]);
    expect(await candidates('volume')).toEqual([{ series_id: 'px:A:volume', instrument: 'ticker:A' }]);
  });

  it('takes the quota label in quota mode and the threshold label in threshold mode', async () => {
    await series('px:A:close', { entity: 'ticker:A', detail: 'Equity OHLCV Close', evalTarget: true });
    const patterns = async (mode: string) => {
      await runSegmentModel(duck, 'fintsb_candidates', { frequency: 'BD', field: 'close', label_mode: mode });
      return (await duck.all<{ pattern: string }>('SELECT DISTINCT pattern FROM fintsb_candidates')).map(
        (r) => r.pattern,
      );
    };
    expect(await patterns('quota')).toEqual(['uptrend']);
    expect(await patterns('threshold')).toEqual(['volatile']);
  });

  it('takes only segments whose entity was a member when their cross-section formed', async () => {
    await series('px:A:close', { entity: 'ticker:A', detail: 'Equity OHLCV Close', evalTarget: true });
    await series('px:B:close', { entity: 'ticker:B', detail: 'Equity OHLCV Close', evalTarget: true });
    // B left the universe during segment 0: its segment 0 counts, its segment 1 does not.
    await duck.run("UPDATE segments SET member = false WHERE series_id = 'px:B:close' AND segment = 1");
    await runSegmentModel(duck, 'fintsb_candidates', {
      frequency: 'BD',
      field: 'close',
      label_mode: 'threshold',
    });
    const rows = await duck.all<{ series_id: string; segment: number }>(
      'SELECT series_id, segment FROM fintsb_candidates ORDER BY segment, series_id',
    );
    expect(rows).toEqual([
      { series_id: 'px:A:close', segment: 0 },
      { series_id: 'px:B:close', segment: 0 },
      { series_id: 'px:A:close', segment: 1 },
    ]);
  });
});
