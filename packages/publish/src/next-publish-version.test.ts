import { describe, expect, it } from 'vitest';
import { bumpVersion } from './next-publish-version.ts';

describe('bumpVersion (docs/decisions/0066)', () => {
  it('patch for the same data, minor for added rows, major for changed history', () => {
    expect(bumpVersion('1.0.0', 'same')).toBe('1.0.1');
    expect(bumpVersion('1.0.3', 'added')).toBe('1.1.0');
    expect(bumpVersion('1.4.2', 'changed')).toBe('2.0.0');
  });
});
