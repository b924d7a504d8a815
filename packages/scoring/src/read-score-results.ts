import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { withVerifiedManifest } from '@asof/manifest';
import { InputError } from '@asof/schema';
import { SCORES_KIND } from './write-results.ts';

/**
 * The bytes of a score's results.json, read only after the score folder's manifest verified them
 * (docs/decisions/0058): a hand-edited results.json (or leaderboard) is refused as ManifestVerifyError
 * naming the file and both hashes (exit 1). A results.json without its manifest beside it (written by an
 * asof from before scores had one, or moved out of its folder) cannot be checked, and is refused too.
 */
export async function readScoreResultsBytes(resultsPath: string): Promise<Buffer> {
  const dir = dirname(resultsPath);
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    throw new InputError(
      'RESULTS_NO_MANIFEST',
      `${resultsPath}: no manifest.json beside it, so its bytes cannot be checked; pass the results.json inside the folder 'asof score --out DIR' wrote (score again if it came from an older asof)`,
      { context: { file: resultsPath } },
    );
  }
  return withVerifiedManifest(manifestPath, async (verified) => {
    if (verified.manifest.kind !== SCORES_KIND) {
      throw new InputError(
        'RESULTS_NOT_A_SCORE',
        `${resultsPath}: the manifest beside it is a ${verified.manifest.kind}'s, not a score's; pass the results.json that 'asof score --out DIR' wrote (DIR/results.json)`,
        { context: { file: manifestPath, field: 'kind', value: verified.manifest.kind } },
      );
    }
    const name = basename(resultsPath);
    const file = verified.files().find((f) => f.output.path === name);
    if (file?.output.table !== 'results') {
      throw new InputError(
        'RESULTS_NOT_LISTED',
        `${resultsPath}: not the results document ${manifestPath} lists; pass ${join(dir, 'results.json')}`,
        { context: { file: resultsPath } },
      );
    }
    // Through the descriptor that was hashed: the bytes checked are the bytes read.
    return readFileSync(file.readPath);
  });
}
