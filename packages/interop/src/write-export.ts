import { join } from 'node:path';
import { Duck } from '@asof/duck';
import { openVerifiedManifest, type VerifiedManifest, writeDerivedDir } from '@asof/manifest';
import type { OutputKind } from '@asof/output';
import type { Manifest } from '@asof/schema';

export interface ExportOptions {
  manifestPath: string;
  outDir: string;
  /** An ISO-8601 instant: the view as known then; omitted = the latest view. */
  asOf?: string;
  createdBy?: { asof_version: string; git_commit: string | null; git_dirty: boolean | null };
  log?: (line: string) => void;
}

export interface ExportResult {
  manifest: Manifest;
  manifestPath: string;
}

/**
 * One export of a verified universe: opens and verifies its manifest, gives `write` a DuckDB spilling into
 * the output's scratch space and the temp folder to fill, and switches the folder in through
 * writeDerivedDir (docs/decisions/0010). `write` returns the export's own manifest.
 */
export async function writeExport(
  options: ExportOptions,
  target: { command: string; writes: OutputKind },
  write: (duck: Duck, verified: VerifiedManifest, dir: string) => Promise<Manifest>,
): Promise<ExportResult> {
  const verified = await openVerifiedManifest(options.manifestPath);
  try {
    const manifest = await writeDerivedDir(
      verified,
      { outDir: options.outDir, manifestPath: options.manifestPath, ...target },
      async ({ dir, work }) => {
        const duck = await Duck.open({ threads: 2, tempDirectory: join(work, 'spill') });
        try {
          return await write(duck, verified, dir);
        } finally {
          duck.close();
        }
      },
      (m: Manifest) => m,
    );
    return { manifest, manifestPath: join(options.outDir, 'manifest.json') };
  } finally {
    verified.close();
  }
}
