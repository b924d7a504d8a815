import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CollectingSink } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { ingestEmbedded } from './ingest-embedded.ts';
import { vegaDataDir } from './read-vega-real.ts';

const FILES = ['sp500-2000.csv', 'stocks.csv', 'us-employment.csv', 'unemployment-across-industries.json'];
const REAL = { sp500: true, stocks: true, us_employment: true, unemployment_by_industry: true };

/** A copy of the vega files with line `line` (0-based) of `file` rewritten, ingested. */
function ingestEdited(file: string, line: number, edit: (text: string) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'asof-vega-checks-'));
  for (const f of FILES) copyFileSync(join(vegaDataDir(), f), join(dir, f));
  const lines = readFileSync(join(dir, file), 'utf8').split('\n');
  lines[line] = edit(lines[line]);
  writeFileSync(join(dir, file), lines.join('\n'));
  return () => ingestEmbedded({ real: { ...REAL, vega_dir: dir } }, new CollectingSink());
}

describe('vega files: strict dates, plausible values, clean symbols', () => {
  it('refuses a date that would roll over, naming file, line and field', () => {
    expect(ingestEdited('sp500-2000.csv', 3, (l) => l.replace(/^[^,]+/, '2000-02-30'))).toThrow(
      /sp500-2000\.csv line 4, field 'date': "2000-02-30" is not a calendar date \(February 2000 has 29 days\)/,
    );
    expect(ingestEdited('stocks.csv', 2, (l) => l.replace(/Feb 1 2000/, 'Feb 30 2000'))).toThrow(
      /stocks\.csv line 3, field 'date': "Feb 30 2000" is not a calendar date \(February 2000 has 29 days\)/,
    );
    expect(ingestEdited('us-employment.csv', 2, (l) => l.replace(/^[^,]+/, '2006-13-01'))).toThrow(
      /us-employment\.csv line 3, field 'month': .*2006-13-01/,
    );
  });

  it('refuses a finite but absurd value, naming file, line and field', () => {
    expect(ingestEdited('stocks.csv', 5, (l) => l.replace(/,[\d.]+$/, ',1e300'))).toThrow(
      /stocks\.csv line 6, field 'price': 1e\+300 is beyond ±1e15/,
    );
  });

  it('refuses a symbol with a control character, naming file, line and field', () => {
    expect(ingestEdited('stocks.csv', 1, (l) => l.replace(/^MSFT/, 'MS\u001bFT'))).toThrow(
      /stocks\.csv line 2, field 'symbol': "MS\\u001bFT" cannot name a series \(it contains a control character\)/,
    );
  });
});
