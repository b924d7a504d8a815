import { zodInputError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { PipelineConfig } from './pipeline-config.ts';

function problem(input: unknown): string {
  const r = PipelineConfig.safeParse(input);
  if (r.success) return '';
  return zodInputError('PIPELINE_INVALID', 'p.json', r.error).message;
}
const EMBEDDED = { embedded: { real: {} } };

describe('PipelineConfig', () => {
  it('fills defaults for a minimal pipeline', () => {
    const c = PipelineConfig.parse({ name: 'x', sources: EMBEDDED });
    expect(c.eval_start).toBe('2020-01-01');
    expect(c.duckdb).toEqual({ threads: 2, memory_limit: '60%' });
  });
  it('names an unknown key and where it is', () => {
    expect(problem({ name: 'x', sources: { fred: { serie: ['GDP'] } } })).toMatch(
      /p\.json: sources\.fred: unknown key 'serie'/,
    );
  });
  it('refuses impossible dates and bad names', () => {
    expect(problem({ name: 'x', eval_start: '2021-02-29', sources: EMBEDDED })).toMatch(
      /eval_start: .*"2021-02-29"/,
    );
    expect(problem({ name: 'Bad Name', sources: EMBEDDED })).toMatch(/name: use lower-case letters/);
  });

  it('refuses a pipeline without sources, in one line', () => {
    const msg = problem({ name: 'x', sources: {} });
    expect(msg).toBe(
      'p.json: sources: no source configured, so the build would be empty; add at least one of embedded, edgar, fred, prices, fredmd, rtdsm, scale (see pipelines/default.json)',
    );
  });

  it('refuses an empty synthetic date range', () => {
    const syn = { seed: 1, start: '2020-02-01', end: '2020-01-01' };
    expect(problem({ name: 'x', sources: { embedded: { synthetic: { ...syn, instruments: 1 } } } })).toBe(
      'p.json: sources.embedded.synthetic.end: the range 2020-02-01 … 2020-01-01 is empty: end is before start; swap them or fix the typo',
    );
    expect(problem({ name: 'x', sources: { fred: { synthetic: { ...syn, count: 2 } } } })).toMatch(
      /^p\.json: sources\.fred\.synthetic\.end: the range 2020-02-01 … 2020-01-01 is empty/,
    );
    expect(
      problem({ name: 'x', sources: { fred: { synthetic: { ...syn, end: '2020-02-01', count: 2 } } } }),
    ).toBe('');
  });

  it('validates duckdb.memory_limit the way DuckDB reads it, with a fix-it message', () => {
    const mem = (memory_limit: string) => problem({ name: 'x', duckdb: { memory_limit }, sources: EMBEDDED });
    for (const ok of [
      '8GB',
      '8 GB',
      '512MB',
      '512mb',
      '2GiB',
      '1.5GB',
      '100000000 bytes',
      '60%',
      '100%',
      '0.5%',
    ])
      expect(mem(ok), ok).toBe('');
    expect(mem('8 gigs')).toBe(
      `p.json: duckdb.memory_limit: "8 gigs" is not a size DuckDB understands; write a size from 64MB to 1000TB like '8GB', '512MB', '2GiB', or a share of RAM like '60%'`,
    );
    // The range asof runs in (docs/decisions/0062): DuckDB takes both ends, asof could not run at them.
    for (const ok of ['64MB', '61.1MiB', '1000TB', '909TiB']) expect(mem(ok), ok).toBe('');
    expect(mem('1MB')).toBe(
      `p.json: duckdb.memory_limit: 1MB is below asof's minimum of 64MB; write a size from 64MB to 1000TB like '8GB', '512MB', '2GiB', or a share of RAM like '60%'`,
    );
    expect(mem('63.9MB')).toMatch(/63\.9MB is below asof's minimum of 64MB/);
    expect(mem('999999TB')).toMatch(/999999TB is above asof's maximum of 1000TB; write a size from 64MB/);
    expect(mem('1001TB')).toMatch(/1001TB is above/);
    expect(mem('0%')).toMatch(
      /duckdb\.memory_limit: 0% is not a share of memory above 0% and at most 100%; write a size from 64MB/,
    );
    expect(mem('200%')).toMatch(/200% is not a share of memory/);
    expect(mem('0GB')).toMatch(/0GB leaves DuckDB no memory/);
    for (const bad of ['', 'GB', '8', '-1GB', '8GB ', '1e9B', '8 GBs']) expect(mem(bad), bad).not.toBe('');
  });

  it('holds the synthetic EDGAR and ALFRED sizes to what their generators were measured to hold in memory', () => {
    const edgar = (companies: number, fiscal_years: number) =>
      problem({
        name: 'x',
        sources: { edgar: { synthetic: { seed: 1, companies, first_fiscal_year: 2000, fiscal_years } } },
      });
    for (const [c, y] of [
      [10_000, 1],
      [100, 100],
      [500, 20],
      [50, 12],
    ])
      expect(edgar(c, y), `${c} × ${y}`).toBe('');
    // The audit's 15.8 (Node out of heap after 71 s): refused by the field's maximum, one message.
    expect(edgar(100_000, 100)).toBe(
      "p.json: sources.edgar.synthetic.companies: at most 10,000 companies: the synthetic EDGAR generator holds every company's files in memory (docs/decisions/0062)",
    );
    expect(edgar(1_000, 100)).toBe(
      'p.json: sources.edgar.synthetic.companies: companies × fiscal_years is 1,000 × 100 = 100,000 company-years, above the 10,000 the synthetic EDGAR generator holds in memory (1,000 × 100 ran Node out of heap); lower companies or fiscal_years (docs/decisions/0062)',
    );
    expect(edgar(101, 100)).toMatch(/101 × 100 = 10,100 company-years, above the 10,000/);

    const fred = (count: number, start: string, end: string) =>
      problem({ name: 'x', sources: { fred: { synthetic: { seed: 1, start, end, count } } } });
    expect(fred(10_000, '2005-01-01', '2025-12-31')).toBe('');
    expect(fred(10_000, '1976-01-01', '2025-12-31')).toBe('');
    expect(fred(5_000, '1926-01-01', '2025-12-31')).toBe('');
    expect(fred(10_000, '1926-01-01', '2025-12-31')).toBe(
      'p.json: sources.fred.synthetic.count: count × calendar years of 1926-01-01 … 2025-12-31 is 10,000 × 100 = 1,000,000 series-years, above the 500,000 the synthetic ALFRED generator was measured to hold in memory (10,000 series over 50 years); lower count or shorten the range (docs/decisions/0062)',
    );
    expect(fred(5_001, '1926-01-01', '2025-12-31')).toMatch(/5,001 × 100 = 500,100 series-years/);
    expect(fred(1, '1000-01-01', '2999-12-31')).toBe('');
    expect(fred(300, '1000-01-01', '2999-12-31')).toMatch(/300 × 2,000 = 600,000 series-years/);
    // The audit's 15.9: a history ending after 2999-12-31 is refused by its date, naming the field.
    expect(fred(1, '1000-01-01', '9999-12-31')).toMatch(
      /sources\.fred\.synthetic\.end: "9999-12-31" is later than 2999-12-31/,
    );
    expect(fred(20_000, '2020-01-01', '2020-12-31')).toMatch(/count: Too big/);
  });

  it('takes allow_partial only with a FRED catalog run, and adds nothing to the resolved config when absent', () => {
    expect(problem({ name: 'x', sources: { fred: { catalog: true, allow_partial: true } } })).toBe('');
    expect(problem({ name: 'x', sources: { fred: { series: ['GDP'], allow_partial: true } } })).toBe(
      'p.json: sources.fred.allow_partial: allow_partial applies to catalog runs only: set "catalog": true, or remove it',
    );
    // No default: the resolved config (and so every dataset_id) of pipelines without it is unchanged.
    expect(PipelineConfig.parse({ name: 'x', sources: { fred: { catalog: true } } }).sources.fred).toEqual({
      catalog: true,
      offline: false,
    });
  });
});
