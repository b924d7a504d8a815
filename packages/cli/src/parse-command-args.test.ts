import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './parse-command-args.ts';

const spec = { limit: { type: 'string' as const }, json: { type: 'boolean' as const } };

describe('parseCommandArgs', () => {
  it('takes a negative number after a value option as its value, for the command to judge', () => {
    expect(parseCommandArgs(['--limit', '-1', '--json'], spec, 'u').values).toMatchObject({
      limit: '-1',
      json: true,
    });
    expect(parseCommandArgs(['--limit', '-0.5'], spec, 'u').values.limit).toBe('-0.5');
  });

  it('still refuses an option where a value belongs, and leaves arguments after -- alone', () => {
    expect(() => parseCommandArgs(['--limit', '--json'], spec, 'u')).toThrow(/usage: u/);
    expect(parseCommandArgs(['--', '--limit', '-1'], spec, 'u').positionals).toEqual(['--limit', '-1']);
  });
});
