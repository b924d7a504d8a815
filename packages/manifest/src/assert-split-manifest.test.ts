import { InputError, type Manifest } from '@asof/schema';
import { describe, expect, it } from 'vitest';
import { assertSplitManifest } from './assert-split-manifest.ts';

describe('assertSplitManifest', () => {
  const of = (kind: string) => ({ kind }) as unknown as Manifest;

  it('passes a split', () => {
    expect(() => assertSplitManifest(of('split'), 's/manifest.json', 'X_NOT_A_SPLIT', 'pass')).not.toThrow();
  });

  it("refuses any other kind with the command's code, the file, the kind and the fix", () => {
    let error: unknown;
    try {
      assertSplitManifest(of('universe'), 'u/manifest.json', 'RUN_NOT_A_SPLIT', 'pass');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const e = error as InputError;
    expect(e.code).toBe('RUN_NOT_A_SPLIT');
    expect(e.message).toBe(
      "u/manifest.json: manifest kind is 'universe', expected 'split'; make one with 'asof split' and pass its manifest",
    );
    expect(e.context).toEqual({ file: 'u/manifest.json', value: 'universe' });
  });
});
