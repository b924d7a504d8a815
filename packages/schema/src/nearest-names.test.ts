import { describe, expect, it } from 'vitest';
import type { AsofError } from './asof-error.ts';
import { globMatcher, isGlob, nearestNames, requireKnownNames } from './nearest-names.ts';

const IDS = ['syn:fred:SYNCPI', 'syn:fred:SYNGDP', 'syn:px:EQ0001:close', 'syn:px:EQ0002:close'];
const o = {
  flag: '--series',
  kind: 'series',
  where: 'out/u',
  code: 'X_UNKNOWN',
  listHint: 'list them',
  globs: true,
};

function refusal(values: string[], names = IDS, opts = o): AsofError {
  try {
    requireKnownNames(values, names, opts);
  } catch (e) {
    return e as AsofError;
  }
  throw new Error('accepted');
}

describe('globMatcher', () => {
  it('has the semantics of DuckDB GLOB', () => {
    expect(globMatcher('syn:px:*:close')('syn:px:EQ0001:close')).toBe(true);
    expect(globMatcher('syn:px:EQ000?:close')('syn:px:EQ0001:close')).toBe(true);
    expect(globMatcher('syn:px:EQ000[12]:close')('syn:px:EQ0002:close')).toBe(true);
    expect(globMatcher('syn:px:EQ000[!1]:close')('syn:px:EQ0001:close')).toBe(false);
    expect(globMatcher('syn:px:EQ000[a-z]:close')('syn:px:EQ0001:close')).toBe(false);
    expect(globMatcher('a.b')('axb')).toBe(false);
    expect(globMatcher('SYN*')('syn:fred')).toBe(false);
    expect(isGlob('fred:*')).toBe(true);
    expect(isGlob('fred:GDP')).toBe(false);
  });
});

describe('requireKnownNames', () => {
  it('accepts known names and patterns that match', () => {
    expect(() => requireKnownNames(['syn:fred:SYNGDP', 'syn:px:*'], IDS, o)).not.toThrow();
  });

  it('refuses a typo in one line with the nearest names and the hint, exit 2', () => {
    const e = refusal(['syn:fred:SYNGDP', 'syn:fred:SYNCPl']);
    expect(e.code).toBe('X_UNKNOWN');
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(
      '--series syn:fred:SYNCPl: no such series in out/u; did you mean syn:fred:SYNCPI, syn:fred:SYNGDP, syn:px:EQ0001:close?\n  hint: list them',
    );
    expect(e.context).toMatchObject({
      value: 'syn:fred:SYNCPl',
      nearest: nearestNames('syn:fred:SYNCPl', IDS),
    });
  });

  it('says a pattern matches nothing, and takes patterns literally when globs are not accepted', () => {
    expect(refusal(['syn:px:XX*']).message).toMatch(
      /^--series syn:px:XX\*: the pattern matches no series in out\/u; did you mean/,
    );
    expect(refusal(['syn:px:*'], IDS, { ...o, globs: false }).message).toMatch(/no such series/);
  });

  it('escapes and cuts the value it echoes', () => {
    const e = refusal([`a\nb${'x'.repeat(200)}`]);
    expect(e.message.split('\n')[0]).toMatch(/^--series a\\nbx+… \(203 characters\): no such series/);
  });
});
