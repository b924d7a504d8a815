/** One record of a Qlib point-in-time field: published on `date` (YYYYMMDD) about `period`. */
export interface PitRecord {
  /** YYYYMMDD: the New York date the value became public (its available_at). */
  date: number;
  /** YYYYQQ (202301 = first quarter of 2023) for quarterly fields, YYYY for annual ones. */
  period: number;
  /** NaN for a withdrawal. */
  value: number;
}

/** Qlib's C.pit_record_nan["index"]: no next record / no record for the period. */
export const PIT_NA_INDEX = 0xffffffff;
/**
 * struct "IIdI" (Qlib's C.pit_record_type: date, period, value, next) in native layout on a little-endian
 * machine: 4 + 4 + 8 + 4 = 20 bytes, the double already 8-aligned, no padding.
 */
export const PIT_RECORD_BYTES = 20;

/** Qlib's get_period_offset: a period's slot in the .index file. */
export function pitPeriodOffset(firstYear: number, period: number, quarterly: boolean): number {
  return quarterly ? (Math.floor(period / 100) - firstYear) * 4 + (period % 100) - 1 : period - firstYear;
}

/**
 * The `.data` and `.index` files of one field as Qlib's dump_pit writes them: the records in the order
 * given (publication order), each `next` the byte offset of the next record of the same period (its
 * revision) or 0xFFFFFFFF; the index a uint32 first year, then per period from that year's first (quarter)
 * the byte offset of the period's first record, 0xFFFFFFFF for a period without one. Qlib's
 * read_period_data follows these offsets with fd.seek.
 */
export function encodeQlibPit(
  records: readonly PitRecord[],
  quarterly: boolean,
): { data: Buffer; index: Buffer } {
  const data = Buffer.alloc(records.length * PIT_RECORD_BYTES);
  if (records.length === 0) return { data, index: Buffer.alloc(0) };
  const yearOf = (p: number) => (quarterly ? Math.floor(p / 100) : p);
  const firstYear = Math.min(...records.map((r) => yearOf(r.period)));
  const slots: number[] = [];
  const last = new Map<number, number>();
  records.forEach((r, i) => {
    const at = i * PIT_RECORD_BYTES;
    data.writeUInt32LE(r.date, at);
    data.writeUInt32LE(r.period, at + 4);
    data.writeDoubleLE(r.value, at + 8);
    data.writeUInt32LE(PIT_NA_INDEX, at + 16);
    const offset = pitPeriodOffset(firstYear, r.period, quarterly);
    while (slots.length <= offset) slots.push(PIT_NA_INDEX);
    const previous = last.get(r.period);
    if (previous === undefined) slots[offset] = at;
    else data.writeUInt32LE(at, previous + 16);
    last.set(r.period, at);
  });
  const index = Buffer.alloc(4 * (slots.length + 1));
  index.writeUInt32LE(firstYear, 0);
  for (let i = 0; i < slots.length; i++) index.writeUInt32LE(slots[i], 4 * (i + 1));
  return { data, index };
}
