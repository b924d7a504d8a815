import { InputError, type Manifest } from '@asof/schema';

/**
 * Refuses a manifest that is not a split's, for the commands that read one (`baselines`, `run`, `score`):
 * `code` is the command's own, `verb` what the user does with the split ("pass", "score").
 */
export function assertSplitManifest(
  manifest: Manifest,
  manifestPath: string,
  code: string,
  verb: string,
): void {
  if (manifest.kind === 'split') return;
  throw new InputError(
    code,
    `${manifestPath}: manifest kind is '${manifest.kind}', expected 'split'; make one with 'asof split' and ${verb} its manifest`,
    { context: { file: manifestPath, value: manifest.kind } },
  );
}
