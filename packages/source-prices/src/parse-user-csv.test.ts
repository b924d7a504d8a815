import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isYahooDownloadCsv, parseUserCsv, YAHOO_DOWNLOAD_CSV_COLUMNS } from './parse-user-csv.ts';

const dir = fileURLToPath(new URL('../../../../shared/fixtures/real/prices/', import.meta.url));
const has = existsSync(dir);

describe('parseUserCsv', () => {
  it('follows the pipeline column mapping, date format and delimiter', () => {
    const text =
      'Day;Px Last;"Vol, shares";Hi;Lo\n20.07.2021;"186,12";100;190;180\n21.07.2021;194.1;;196;185\n';
    const p = parseUserCsv(
      text,
      {
        columns: { date: 'day', close: 'PX LAST', volume: 'Vol, shares', high: 'Hi', low: 'Lo' },
        delimiter: ';',
        dateFormat: 'DD.MM.YYYY',
        symbol: 'NVDA',
      },
      'mine.csv',
    );
    expect(p.bars.map((b) => b.date)).toEqual(['2021-07-20', '2021-07-21']);
    expect(p.bars[0].close).toBeNull(); // "186,12" is not a number: reported, not guessed
    expect(p.issues[0]).toMatchObject({ code: 'BAD_NUMBER', row: 2 });
    expect(p.bars[1]).toMatchObject({ close: 194.1, volume: null, open: null, high: 196 });
    expect(p.adjustment).toBe('none');
  });

  it('names the missing column and the header when the mapping is wrong', () => {
    expect(() => parseUserCsv('Date,Close\n', { columns: { date: 'Date', close: 'Adj' } }, 'u.csv')).toThrow(
      /u\.csv: the column mapping names "Adj" for close, but the header is "Date,Close"/,
    );
  });

  it.skipIf(!has)('reads a real Yahoo v7 download (no trailing newline) as split-adjusted', () => {
    const text = readFileSync(`${dir}yahoo_download_AAPL_2020-01-02_history.csv`, 'utf8');
    expect(isYahooDownloadCsv(text)).toBe(true);
    const p = parseUserCsv(text, {
      columns: YAHOO_DOWNLOAD_CSV_COLUMNS,
      adjustment: 'split',
      format: 'yahoo_csv',
    });
    expect(p.bars).toHaveLength(1);
    expect(p.bars[0].date).toBe('2020-01-02');
    expect(p.bars[0].close).toBeCloseTo(75.0875, 4);
  });
});
