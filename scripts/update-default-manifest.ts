// Rebuilds the default universe and commits its manifest as the golden file manifests/default.json
// (npm run golden:default). The golden drops git_commit/git_dirty, which dataset_id ignores too. The build goes
// to a temporary folder, removed afterwards: the user's out/default (their own build) is left as it is.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUniverse, loadPipeline } from '@asof/build';
import { canonicalJson } from '@asof/manifest';

const repo = join(import.meta.dirname, '..');
process.chdir(repo);
const config = loadPipeline(join(repo, 'pipelines/default.json'));
const scratch = mkdtempSync(join(tmpdir(), 'asof-golden-'));
const { manifest } = await (async () => {
  try {
    return await buildUniverse({
      config,
      outDir: join(scratch, 'default'),
      cwd: repo,
      inputs: [join(repo, 'pipelines/default.json')],
      log: (l) => process.stderr.write(`${l}\n`),
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
})();
const golden = { ...manifest, created_by: { ...manifest.created_by, git_commit: null, git_dirty: null } };
const path = join(repo, 'manifests/default.json');
writeFileSync(`${path}.tmp`, canonicalJson(golden));
renameSync(`${path}.tmp`, path);
process.stderr.write(`wrote ${path} (dataset_id ${manifest.dataset_id})\n`);
