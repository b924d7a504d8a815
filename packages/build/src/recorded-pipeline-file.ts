import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * created_by.pipeline_file: the pipeline file as a path relative to the universe's own folder, the generation
 * `<parent of --out>/.asof/<name>/gen-…/` where its manifest lies (docs/decisions/0063). Relative, not
 * absolute, so the manifest holds no path of the user's machine (it may be published) and the same checkout
 * layout builds the same manifest bytes on every machine; `asof update` without a pipeline argument finds the
 * file again from wherever the manifest's folder really is.
 */
export function pipelineFileToRecord(pipelineFile: string, outDir: string): string {
  const parent = dirname(outDir);
  let real = parent;
  try {
    real = realpathSync(parent);
  } catch {
    // The parent is made by the output step; without it the build stops there, before anything is recorded.
  }
  let target = pipelineFile;
  try {
    target = realpathSync(pipelineFile);
  } catch {
    // Read already by loadPipeline; a file removed since is recorded where it was given.
  }
  // The generation folder is three levels below the parent: .asof/<name>/gen-…
  return join('..', '..', '..', relative(real, target)).split(sep).join('/');
}

/**
 * The pipeline file OLD was built from (created_by.pipeline_file, relative to OLD's real folder), when OLD
 * records one and its folder is there; undefined otherwise (an older manifest, another machine): the update
 * then resolves against the working directory and names the raw folder it could not find.
 */
export function recordedPipelineFile(oldManifest: string): string | undefined {
  try {
    const m = JSON.parse(readFileSync(oldManifest, 'utf8')) as { created_by?: { pipeline_file?: unknown } };
    const rel = m.created_by?.pipeline_file;
    if (typeof rel !== 'string' || rel === '') return undefined;
    const path = resolve(realpathSync(dirname(oldManifest)), rel);
    return statSync(dirname(path)).isDirectory() ? path : undefined;
  } catch {
    return undefined;
  }
}
