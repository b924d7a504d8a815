import { describe, expect, it } from 'vitest';
import { parseFredgraphCsv } from './parse-fredgraph-csv.ts';

describe('parseFredgraphCsv', () => {
  it('reads legacy (DATE, ".") and current (observation_date, empty) headers alike, LF or CRLF', () => {
    const legacy = parseFredgraphCsv('DATE,UNRATE\n2017-01-01,4.7\n2017-02-01,.\n', 'a.csv');
    const current = parseFredgraphCsv('observation_date,UNRATE\r\n2017-01-01,4.7\r\n2017-02-01,', 'b.csv');
    expect(legacy.format).toBe('legacy');
    expect(current.format).toBe('current');
    for (const p of [legacy, current]) {
      expect(p.columns).toEqual([
        {
          fredId: 'UNRATE',
          rows: [
            { date: '2017-01-01', value: 4.7 },
            { date: '2017-02-01', value: null },
          ],
          missing: 1,
        },
      ]);
    }
  });

  it('reads several series columns and a byte-order mark', () => {
    const p = parseFredgraphCsv('\uFEFFobservation_date,DGS2,DGS10\n2020-01-02,1.58,1.88\n', 'c.csv');
    expect(p.columns.map((c) => [c.fredId, c.rows[0].value])).toEqual([
      ['DGS2', 1.58],
      ['DGS10', 1.88],
    ]);
  });

  it('refuses edited files with the file, line and value in the message', () => {
    expect(() => parseFredgraphCsv('Date,GDP\n', 'x.csv')).toThrow(/x\.csv: line 1.*DATE,<SERIES_ID>/);
    expect(() => parseFredgraphCsv('observation_date,GDP\n2025-07-01,"30,504.50"\n', 'gdp.csv')).toThrow(
      /gdp\.csv: line 2.*quoted or comma-grouped/,
    );
    expect(() => parseFredgraphCsv('DATE,GDP\n2025-07-01,n/a\n', 'y.csv')).toThrow(
      /y\.csv: line 2, GDP 2025-07-01.*n\/a/,
    );
    expect(() => parseFredgraphCsv('DATE,GDP\n07/01/2025,1\n', 'z.csv')).toThrow(
      /z\.csv: line 2, field DATE: expected a date as YYYY-MM-DD, got "07\/01\/2025"/,
    );
    expect(() => parseFredgraphCsv('DATE,GDP\n2025-07-01,1\n2025-07-01,2\n', 'd.csv')).toThrow(
      /d\.csv: line 3: date 2025-07-01 already on line 2/,
    );
  });
});
