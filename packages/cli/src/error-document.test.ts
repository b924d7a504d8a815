import { AsofError, InputError } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { errorDocument, safeErrorText, wantsJson } from './error-document.ts';

describe('errorDocument', () => {
  it('splits an asof message into message, hint and usage, with the code, the exit and the context', () => {
    const err = new InputError(
      'USAGE',
      '--limit -1: expected a whole number\n  hint: 0 lists every change\n  usage: asof diff A B',
      { context: { value: '-1', rows: 12n } },
    );
    expect(errorDocument(err, 2)).toEqual({
      error: {
        code: 'USAGE',
        message: '--limit -1: expected a whole number',
        hint: '0 lists every change',
        usage: 'asof diff A B',
        exit: 2,
        context: { value: '-1', rows: '12' },
      },
    });
  });

  it('keeps other continuation lines in the message and leaves out an empty context', () => {
    const doc = errorDocument(new AsofError('X', 'first\n  second part'), 1);
    expect(doc).toEqual({ error: { code: 'X', message: 'first second part', exit: 1 } });
  });

  it('leaves out a context that cannot be written as JSON, instead of failing again', () => {
    const cycle: Record<string, unknown> = { file: 'a.csv' };
    cycle.self = cycle;
    expect(errorDocument(new AsofError('X', 'bad', { context: cycle }), 1).error).toEqual({
      code: 'X',
      message: 'bad',
      exit: 1,
    });
  });

  it('an unexpected error is UNEXPECTED_FAILURE with its message', () => {
    expect(errorDocument(new TypeError('boom'), 1).error).toEqual({
      code: 'UNEXPECTED_FAILURE',
      message: 'boom',
      exit: 1,
    });
  });
});

describe('wantsJson', () => {
  it('sees --json before a `--`, not after it', () => {
    expect(wantsJson(['--out', 'x', '--json'])).toBe(true);
    expect(wantsJson(['--out', 'x'])).toBe(false);
    expect(wantsJson(['--', '--json'])).toBe(false);
  });
});

describe('safeErrorText', () => {
  it('escapes control characters and bidi overrides but keeps the newlines between message and hint', () => {
    expect(safeErrorText('--data a\u001b[2Jb: no such folder\n  hint: x')).toBe(
      '--data a\\u{1b}[2Jb: no such folder\n  hint: x',
    );
    // A tab is only a wide space: kept.
    expect(safeErrorText('x\u202ey\tz')).toBe('x\\u{202e}y\tz');
  });

  it('cuts a line longer than 2,000 characters, saying how long it was', () => {
    const out = safeErrorText(`id ${'A'.repeat(5_000)}\n  hint: h`);
    expect(out.split('\n')[0]).toMatch(/^id A+… \(5,003 characters\)$/);
    expect(out.split('\n')[0].length).toBeLessThan(2_100);
    expect(out.split('\n')[1]).toBe('  hint: h');
  });
});
