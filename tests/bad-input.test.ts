import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vegaDataDir } from '@asof/source-embedded';
import { describe, expect, it } from 'vitest';
import { asof, SCRATCH, scratchOut } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'asof-bad-'));
function pipeline(name: string, body: unknown): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(body));
  return path;
}
const REAL_ONLY = {
  name: 'real-only',
  sources: {
    embedded: { real: { sp500: true, stocks: true, us_employment: true, unemployment_by_industry: true } },
  },
};

describe('bad input', () => {
  it('an unknown key in a pipeline exits 2 naming the field', async () => {
    const r = await asof(
      'build',
      pipeline('unknown-key', { name: 'x', sources: { embedded: { reall: {} } } }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sources\.embedded: unknown key 'reall'/);
  });

  it('a malformed date in a pipeline exits 2 naming the field and value', async () => {
    const body = {
      name: 'x',
      sources: {
        embedded: {
          synthetic: {
            seed: 1,
            start: '2005-13-01',
            end: '2006-01-01',
            instruments: 1,
            companies: 0,
            macro_series: 0,
          },
        },
      },
    };
    const r = await asof('build', pipeline('bad-date', body));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /sources\.embedded\.synthetic\.start: expected a calendar date as YYYY-MM-DD, got "2005-13-01"/,
    );
  });

  it('refuses, before any work, an output that holds what asof did not write (the repository itself)', async () => {
    // Any path may be an output (tests/output-safety.test.ts); these hold the user's files.
    for (const out of ['.', '..', 'packages', '/']) {
      const r = await asof('build', 'pipelines/default.json', '--out', out);
      expect(r.code, out).toBe(2);
      expect(r.stderr).toMatch(/asof did not write|root folder|which this command reads/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('a non-numeric value in an embedded CSV names file and row and leaves no output behind', async () => {
    const vega = mkdtempSync(join(tmpdir(), 'asof-vega-'));
    for (const f of [
      'sp500-2000.csv',
      'stocks.csv',
      'us-employment.csv',
      'unemployment-across-industries.json',
    ]) {
      copyFileSync(join(vegaDataDir(), f), join(vega, f));
    }
    const csv = readFileSync(join(vega, 'sp500-2000.csv'), 'utf8').split('\n');
    csv[100] = csv[100].replace(/,([0-9.]+),/, ',n/a,');
    writeFileSync(join(vega, 'sp500-2000.csv'), csv.join('\n'));
    const out = scratchOut('doctored');
    const body = {
      ...REAL_ONLY,
      sources: { embedded: { real: { ...REAL_ONLY.sources.embedded.real, vega_dir: vega } } },
    };
    const r = await asof('build', pipeline('doctored', body), '--out', out.rel);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sp500-2000\.csv line 101, field '\w+': expected a number, got "n\/a"/);
    expect(existsSync(out.abs)).toBe(false);
    expect(readdirSync(SCRATCH).filter((f) => f.includes('doctored'))).toEqual([]);
  });

  it('an unknown command or option exits 2 with a hint', async () => {
    expect((await asof('bild')).code).toBe(2);
    const r = await asof('verify', '--frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/usage: asof verify/);
  });
});
