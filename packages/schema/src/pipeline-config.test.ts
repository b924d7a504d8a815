import { describe, expect, it } from 'vitest';
import { PipelineConfig } from './pipeline-config.ts';
import { zodInputError } from './zod-issues.ts';

function problem(input: unknown): string {
  const r = PipelineConfig.safeParse(input);
  if (r.success) return '';
  return zodInputError('PIPELINE_INVALID', 'p.json', r.error).message;
}

describe('PipelineConfig', () => {
  it('fills defaults for a minimal pipeline', () => {
    const c = PipelineConfig.parse({ name: 'x', sources: {} });
    expect(c.eval_start).toBe('2020-01-01');
    expect(c.duckdb).toEqual({ threads: 2, memory_limit: '60%' });
  });

  it('names an unknown key and where it is', () => {
    expect(problem({ name: 'x', sources: { fred: { serie: ['GDP'] } } })).toMatch(
      /p\.json: sources\.fred: unknown key 'serie'/,
    );
  });

  it('refuses impossible dates and bad names', () => {
    expect(problem({ name: 'x', eval_start: '2021-02-29', sources: {} })).toMatch(
      /eval_start: .*"2021-02-29"/,
    );
    expect(problem({ name: 'Bad Name', sources: {} })).toMatch(/name: use lower-case letters/);
  });
});
