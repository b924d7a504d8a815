import { Duck } from '@asof/duck';
import { type ObservationColumns, observationRowsOf } from '@asof/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStagingTables } from './run-models.ts';
import { StageSink } from './stage-sink.ts';

const DAY = 86_400_000_000;

/** 3,000 daily rows of one series: more than a chunk (2,048), so blocks straddle chunk boundaries. */
function columns(seriesId: string, n = 3000, start = 0): ObservationColumns {
  const timestamp = Float64Array.from({ length: n }, (_, i) => (start + i) * DAY);
  return {
    series_id: seriesId,
    timestamp,
    available_at: Float64Array.from(timestamp, (t) => t + 3_600_000_000),
    value: Float64Array.from({ length: n }, (_, i) => (i % 7) - 3.25 + i / 1000),
    available_at_basis: 'bar_close',
    source_ref: `ref:${seriesId}`,
  };
}

let duck: Duck;
beforeEach(async () => {
  duck = await Duck.open({ threads: 1 });
  await createStagingTables(duck);
});
afterEach(() => duck.close());

const staged = (d: Duck) =>
  d.all(
    `SELECT o.*, k.text AS series_id FROM stg_observations AS o
     JOIN stg_keys AS k ON k.kind = 'series' AND k.key = o.series_key ORDER BY stage_seq`,
  );
const keys = (d: Duck) => d.all('SELECT * FROM stg_keys ORDER BY kind, key');

describe('StageSink.addObservations', () => {
  it('stages the same rows, keys and sequence numbers as one addObservation per row', async () => {
    const blocks = [columns('a'), columns('b', 5), columns('a', 10, 5000), columns('c', 2049)];
    const bulk = await StageSink.create(duck);
    bulk.addObservation(observationRowsOf(columns('z', 1))[0]);
    for (const b of blocks) bulk.addObservations(b);
    bulk.addObservation(observationRowsOf(columns('a', 1, 9000))[0]);
    bulk.close();

    const other = await Duck.open({ threads: 1 });
    try {
      await createStagingTables(other);
      const rowWise = await StageSink.create(other);
      rowWise.addObservation(observationRowsOf(columns('z', 1))[0]);
      for (const b of blocks) for (const row of observationRowsOf(b)) rowWise.addObservation(row);
      rowWise.addObservation(observationRowsOf(columns('a', 1, 9000))[0]);
      rowWise.close();
      expect(bulk.observationCount).toBe(rowWise.observationCount);
      expect(bulk.observationCount).toBe(1 + 3000 + 5 + 10 + 2049 + 1);
      const got = await staged(duck);
      expect(got).toEqual(await staged(other));
      expect(await duck.all('SELECT * FROM stg_observation_periods')).toEqual([]);
      expect(await keys(duck)).toEqual(await keys(other));
    } finally {
      other.close();
    }
  });

  it('refuses an implausible value naming the series and the row, and stages nothing of the block', async () => {
    const sink = await StageSink.create(duck);
    sink.addObservations(columns('a', 10));
    const bad = columns('b', 10);
    bad.value[4] = Number.POSITIVE_INFINITY;
    expect(() => sink.addObservations(bad)).toThrow(
      /series b, observation #15 \(source_ref ref:b\): value must be a finite number, got Infinity/,
    );
    const short = { ...columns('c', 10), value: new Float64Array(9) };
    expect(() => sink.addObservations(short)).toThrow(
      /series c: 10 timestamps, 10 available_at and 9 values; expected one of each per row/,
    );
    sink.close();
    expect(sink.observationCount).toBe(10);
    expect((await keys(duck)).map((k) => k.text)).toEqual(['bar_close', 'ref:a', 'a']);
  });

  it('calls a whenObservations callback once, when the staged rows reach its count', async () => {
    const sink = await StageSink.create(duck);
    const calls: number[] = [];
    sink.whenObservations(2500, () => calls.push(sink.observationCount));
    sink.addObservations(columns('a', 2000));
    expect(calls).toEqual([]);
    for (const row of observationRowsOf(columns('b', 600))) sink.addObservation(row);
    expect(calls).toEqual([2500]);
    sink.addObservations(columns('c', 3000));
    sink.whenObservations(10, () => calls.push(-1));
    expect(calls).toEqual([2500, -1]);
    sink.close();
  });
});
