import { isoToMicros } from '@asof/calendar';
import { CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { createSessionCloser } from './create-session-closer.ts';
import { ListingSpan } from './listing-span.ts';
import { mapPricesToAtomic, type PriceDownload, priceSeriesId } from './map-prices-to-atomic.ts';
import type { ParsedPriceFile, PriceBar } from './price-types.ts';
import { PRICE_FIELDS, PriceVintageEmitter } from './price-vintage-emitter.ts';

const bar = (date: string, close: number, row: number): PriceBar => ({
  date,
  open: close - 1,
  high: close + 1,
  low: close - 2,
  close,
  volume: 1000,
  row,
});

const file = (bars: PriceBar[], adjustment: ParsedPriceFile['adjustment']): ParsedPriceFile => ({
  format: 'yahoo_chart',
  symbol: 'ABC',
  currency: 'USD',
  timeZone: 'America/New_York',
  instrumentType: 'EQUITY',
  name: 'ABC Inc',
  bars,
  splits: [],
  dividends: [],
  splitsListed: true,
  adjustment,
  marketTimeMicros: null,
  issues: [],
});

/** Two downloads: the second overlaps the first (one close restated) and adds two sessions. */
function downloads(adjustment: ParsedPriceFile['adjustment']): PriceDownload[] {
  return [
    {
      parsed: file(
        [bar('2024-03-04', 10, 1), bar('2024-03-05', 11, 2), bar('2024-03-06', 12, 3)],
        adjustment,
      ),
      downloadedAt: isoToMicros('2024-03-06T23:00:00Z'),
      sourceRef: 'sha-1',
      where: 'ABC_1.json',
      knownSplits: [],
    },
    {
      parsed: file(
        [
          bar('2024-03-05', 11, 1),
          bar('2024-03-06', 12.5, 2),
          bar('2024-03-07', 13, 3),
          bar('2024-03-08', 14, 4),
        ],
        adjustment,
      ),
      downloadedAt: isoToMicros('2024-03-09T15:00:00Z'),
      sourceRef: 'sha-2',
      where: 'ABC_2.json',
      knownSplits: [],
    },
  ];
}

describe('PriceVintageEmitter and ListingSpan seeded with earlier rows (the update’s append path)', () => {
  for (const adjustment of ['split', 'split_dividend'] as const) {
    it(`map a later download as mapPricesToAtomic maps it after the earlier one (${adjustment})`, () => {
      const all = downloads(adjustment);
      const full = new CollectingSink();
      mapPricesToAtomic(all, full, { symbol: 'ABC', kind: 'equity', source: 'yahoo' });
      const vendorAdjusted = adjustment === 'split_dividend';
      const first = full.observations.filter((o) => o.source_ref === 'sha-1');
      const second = full.observations.filter((o) => o.source_ref === 'sha-2');
      expect(second.length).toBeGreaterThan(0);

      const sink = new CollectingSink();
      const emitter = new PriceVintageEmitter(sink, {
        lagMicros: 0,
        tolerance: 1e-6,
        timeZone: 'America/New_York',
        firstAtDownload: vendorAdjusted,
      });
      for (const r of first) emitter.know(r.series_id, r.timestamp, r.value, r.available_at);
      const sessionClose = createSessionCloser('us', 'America/New_York');
      const ids = Object.fromEntries(
        PRICE_FIELDS.map((f) => [f, priceSeriesId('ABC', f, { vendorAdjusted })]),
      ) as Record<(typeof PRICE_FIELDS)[number], string>;
      emitter.emitBars(all[1].parsed.bars, ids, all[1], { sessionClose, isIndex: false });
      expect(sink.observations).toEqual(second);
      expect(emitter.revisions).toBe(4); // the restated bar's open, high, low and close

      // The span over the first download, then the second added to it: the build's rows over both.
      const o = { lag: 0, vendorAdjustedAtDownload: vendorAdjusted, sessionClose };
      const before = new ListingSpan(o);
      before.add(all[0], all[0].parsed.bars);
      const [open] = before.rows('ticker:ABC');
      const seeded = new ListingSpan(o, {
        first: {
          date: open.effective_from!,
          ts: open.from!,
          at: open.available_at!,
          ref: open.source_ref,
        },
        last: { date: '2024-03-06', ts: sessionClose('2024-03-06') },
      });
      seeded.add(all[1], all[1].parsed.bars);
      expect(seeded.rows('ticker:ABC')).toEqual(full.memberships);
    });
  }

  it('leaves a conflicting value out and reports it to onConflict instead of warning', () => {
    const sink = new CollectingSink();
    const conflicts: string[] = [];
    const emitter = new PriceVintageEmitter(sink, {
      lagMicros: 0,
      tolerance: 1e-6,
      timeZone: 'America/New_York',
      firstAtDownload: false,
      onConflict: (c) => conflicts.push(`${c.seriesId} ${c.value} ${c.previous}`),
    });
    const ts = isoToMicros('2024-03-04T21:00:00Z');
    emitter.know('px:ABC:close', ts, 10, ts + 10);
    emitter.emit('px:ABC:close', ts, 11, { downloadedAt: ts + 5, sourceRef: 'sha-x' });
    expect(sink.observations).toEqual([]);
    expect(sink.warnings).toEqual([]);
    expect(conflicts).toEqual(['px:ABC:close 11 10']);
  });
});
