import { canonicalJson } from '@asof/manifest';
import { describe, expect, it } from 'vitest';
import { encodeQlibPit, PIT_NA_INDEX, PIT_RECORD_BYTES, pitPeriodOffset } from './encode-qlib-pit.ts';
import { float32Warnings } from './export-qlib.ts';
import { newFloat32Report, noteFloat32 } from './float32-report.ts';
import { pitPeriod } from './write-qlib-pit.ts';

/** Qlib's read_period_data: the value of `period` known on `date`, following the index and next offsets. */
function readPeriod(data: Buffer, index: Buffer, period: number, date: number, quarterly: boolean): number {
  const first = index.readUInt32LE(0);
  let next = index.readUInt32LE(4 * (1 + pitPeriodOffset(first, period, quarterly)));
  let value = Number.NaN;
  while (next !== PIT_NA_INDEX) {
    if (data.readUInt32LE(next) > date) break;
    value = data.readDoubleLE(next + 8);
    next = data.readUInt32LE(next + 16);
  }
  return value;
}

describe('encodeQlibPit', () => {
  it("links revisions by byte offset and indexes periods from the first year, as Qlib's dump_pit", () => {
    const records = [
      { date: 20190205, period: 201804, value: 10 },
      { date: 20190430, period: 201901, value: 3 },
      { date: 20190601, period: 201804, value: 11 }, // a revision of 2018Q4
      { date: 20190730, period: 201902, value: Number.NaN }, // a withdrawal
    ];
    const { data, index } = encodeQlibPit(records, true);
    expect(data.length).toBe(4 * PIT_RECORD_BYTES);
    expect(index.readUInt32LE(0)).toBe(2018);
    // slots 2018Q1..2019Q2: none, none, none, record 0, record 1, record 3
    expect(Array.from({ length: 6 }, (_, i) => index.readUInt32LE(4 * (i + 1)))).toEqual([
      PIT_NA_INDEX,
      PIT_NA_INDEX,
      PIT_NA_INDEX,
      0,
      PIT_RECORD_BYTES,
      3 * PIT_RECORD_BYTES,
    ]);
    expect(data.readUInt32LE(16)).toBe(2 * PIT_RECORD_BYTES);
    expect(readPeriod(data, index, 201804, 20190301, true)).toBe(10);
    expect(readPeriod(data, index, 201804, 20190601, true)).toBe(11);
    expect(readPeriod(data, index, 201804, 20190101, true)).toBeNaN();
    expect(readPeriod(data, index, 201902, 20191231, true)).toBeNaN();
  });

  it('numbers annual periods by year', () => {
    const { index } = encodeQlibPit([{ date: 20200301, period: 2019, value: 1 }], false);
    expect([index.readUInt32LE(0), index.readUInt32LE(4)]).toEqual([2019, 0]);
  });

  it('reads periods from the New York date of the timestamp', () => {
    // 2020-01-01T04:59:59.999999Z is 2019-12-31 23:59:59.999999 New York: 2019Q4, year 2019.
    const us = Date.UTC(2020, 0, 1, 4, 59, 59, 999) * 1000 + 999;
    expect(pitPeriod(us, true)).toBe(201904);
    expect(pitPeriod(us, false)).toBe(2019);
  });
});

describe('noteFloat32', () => {
  it('counts roundings and reports those past the tolerance', () => {
    const r = newFloat32Report(1e-7);
    noteFloat32(r, 0.5, () => 'exact');
    noteFloat32(r, 0.1, () => 'rounded');
    noteFloat32(r, Number.NaN, () => 'gap');
    noteFloat32(r, 1e39, () => 'overflow');
    expect([r.values, r.rounded, r.exceeding]).toEqual([3, 2, 1]);
    expect(r.examples.map((e) => e.where)).toEqual(['overflow']);
    expect(r.overflow).toBe(1);
    expect(r.max_relative).toBeGreaterThan(1e-9);
    expect(r.max_relative).toBeLessThan(6e-8);
    // The report and its warning go into the manifest: canonical JSON, which has no Infinity.
    expect(canonicalJson({ r, w: float32Warnings(r) })).toMatch(/FLOAT32_ROUNDING.*overflow/);
  });
});
