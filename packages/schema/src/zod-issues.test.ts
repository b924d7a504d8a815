import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstZodIssue, formatZodIssues, zodInputError, zodMessage } from './zod-issues.ts';

function failure(schema: z.ZodType, value: unknown): z.ZodError {
  const r = schema.safeParse(value);
  if (r.success) throw new Error('expected a failure');
  return r.error;
}

describe('zod issue messages', () => {
  it('names where, what, each dotted field path with its message, and the fix on a hint line', () => {
    const error = failure(z.object({ a: z.array(z.object({ b: z.number() })) }), { a: [{ b: 'x' }] });
    expect(zodMessage('f.json', error, { what: 'thing', hint: 're-download it' })).toBe(
      'f.json: not a valid thing: a.0.b: Invalid input: expected number, received string\n  hint: re-download it',
    );
  });

  it('writes the value itself as (root) and names unknown keys with the fix', () => {
    expect(formatZodIssues(failure(z.number(), 'x'))).toBe(
      '(root): Invalid input: expected number, received string',
    );
    expect(formatZodIssues(failure(z.strictObject({ a: z.number() }), { a: 1, b: 2, c: 3 }))).toBe(
      "(root): unknown keys 'b', 'c' (remove or fix the spelling)",
    );
  });

  it('lists the first 5 issues and counts the rest', () => {
    const error = failure(z.array(z.number()), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const text = formatZodIssues(error);
    expect(text.split('; ')).toHaveLength(6);
    expect(text).toMatch(/^0: .*; 4: [^;]*; … and 2 more issues$/);
  });

  it("reports a failed union's first branch with its full path", () => {
    const error = failure(z.object({ p: z.union([z.object({ x: z.number() }), z.string()]) }), {
      p: { x: 'no' },
    });
    expect(firstZodIssue(error).path).toEqual(['p', 'x']);
  });

  it('builds an InputError with the code, file, field, issues and the zod error as cause', () => {
    const error = failure(z.object({ n: z.number() }), { n: 'x' });
    const e = zodInputError('SOME_CODE', 'f.json', error, { context: { series_id: 'S' } });
    expect(e).toMatchObject({ code: 'SOME_CODE', exitCode: 2, cause: error });
    expect(e.context).toEqual({
      file: 'f.json',
      field: 'n',
      issues: ['n: Invalid input: expected number, received string'],
      series_id: 'S',
    });
  });
});
