import { dirname } from 'node:path';
import { type OutputKind, type OutputWork, writeOutputDir } from '@asof/output';
import type { Manifest } from '@asof/schema';
import type { VerifiedFile, VerifiedManifest } from './open-verified-manifest.ts';

/**
 * Writes a folder derived from a verified dataset (an export, a publish) the one safe way: through
 * writeOutputDir (docs/decisions/0010), with the parent manifest and its folder as inputs it never writes
 * into, the work guarded so that a file changed under it is an error, and every file read re-checked just
 * before the switch. The generation is labelled with the new manifest's dataset_id, found by `manifestOf`.
 */
export async function writeDerivedDir<T>(
  verified: VerifiedManifest,
  target: { outDir: string; manifestPath: string; command: string; writes: OutputKind },
  produce: (work: OutputWork) => Promise<T>,
  manifestOf: (value: T) => Manifest,
): Promise<T> {
  const { value } = await writeOutputDir(
    target.outDir,
    {
      command: target.command,
      writes: target.writes,
      inputs: [target.manifestPath, dirname(target.manifestPath)],
      label: (v: T) => manifestOf(v).dataset_id.slice(0, 12),
      beforeSwitch: () => verified.recheck(),
    },
    (work) => verified.guard(() => produce(work)),
  );
  return value;
}

/**
 * A derived manifest's `inputs`: the parent's manifest as it was verified (not read again: it may have been
 * rebuilt meanwhile) and each parent file the derivation read (by default every file it lists).
 */
export function parentInputs(
  verified: VerifiedManifest,
  files: readonly VerifiedFile[] = verified.files(),
): Manifest['inputs'] {
  return [
    { source: 'parent', key: 'manifest.json', sha256: verified.sha256, bytes: verified.bytes.length },
    ...files.map((f) => ({
      source: 'parent',
      key: f.output.path,
      sha256: f.output.sha256,
      bytes: f.output.bytes,
    })),
  ];
}
