import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localDateOfMicros, periodLabel } from '@asof/calendar';
import { type Duck, listValue, loadQuery } from '@asof/duck';
import { encodeQlibPit, type PitRecord } from './encode-qlib-pit.ts';
import { SQL_DIR } from './stage-universe.ts';
import type { QlibFile } from './write-qlib-features.ts';

interface PitRow {
  symbol: string;
  field: string;
  quarterly: boolean;
  timestamp_us: bigint;
  available_us: bigint;
  value: number | null;
}

/**
 * A period as Qlib's PIT store numbers it, from the period label of the timestamp (its New York date,
 * @asof/calendar periodLabel): 2019Q4 → 201904 for quarterly fields; 2019 or FY2019 → 2019 for annual ones
 * (a fiscal year is named by the calendar year it ends in; a fiscal quarter by the calendar quarter it ends in).
 */
export function pitPeriod(timestampMicros: number, quarterly: boolean): number {
  const label = periodLabel(timestampMicros, quarterly ? 'Q' : 'A');
  return quarterly ? Number(label.slice(0, 4)) * 100 + Number(label.slice(5)) : Number(label.slice(-4));
}

/**
 * Qlib's point-in-time store (docs: qlib.readthedocs.io "Point-In-Time Provider"; scripts/dump_pit.py):
 * `financial/<symbol>/<field>_q.data` and `.index` (`_a` for annual). Every vintage known at the export's
 * as-of is a record (date = the New York date of available_at as YYYYMMDD, period, value float64: NaN for a
 * withdrawal, next), in publication order; encodeQlibPit writes the bytes.
 */
export async function writeQlibPit(duck: Duck, dir: string, observationFiles: string[], asOf: string) {
  const rows = await duck.all<PitRow>(loadQuery(SQL_DIR, 'qlib_pit_records'), {
    observation_files: listValue(observationFiles),
    as_of: asOf,
  });
  const groups = new Map<
    string,
    { symbol: string; name: string; quarterly: boolean; records: PitRecord[] }
  >();
  for (const r of rows) {
    const name = `${r.field}_${r.quarterly ? 'q' : 'a'}`;
    const key = `${r.symbol}/${name}`;
    const group = groups.get(key) ?? { symbol: r.symbol, name, quarterly: r.quarterly, records: [] };
    groups.set(key, group);
    group.records.push({
      date: Number(localDateOfMicros(Number(r.available_us), 'America/New_York').replaceAll('-', '')),
      period: pitPeriod(Number(r.timestamp_us), r.quarterly),
      value: r.value ?? Number.NaN,
    });
  }
  const files: QlibFile[] = [];
  let records = 0;
  for (const g of groups.values()) {
    const { data, index } = encodeQlibPit(g.records, g.quarterly);
    mkdirSync(join(dir, 'financial', g.symbol), { recursive: true });
    const base = `financial/${g.symbol}/${g.name}`;
    writeFileSync(join(dir, ...`${base}.data`.split('/')), data);
    writeFileSync(join(dir, ...`${base}.index`.split('/')), index);
    files.push({ path: `${base}.data`, table: 'qlib_pit_data', rows: g.records.length });
    files.push({ path: `${base}.index`, table: 'qlib_pit_index', rows: index.length / 4 - 1 });
    records += g.records.length;
  }
  return { files, records, fields: groups.size };
}
