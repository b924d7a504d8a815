#!/usr/bin/env node
// The asof command. Its sources are TypeScript with no build step to remember: it runs their esbuild bundle
// while that is fresh (bundle-cli.mjs, rebuilt when a source changes), else the sources through tsx.
import { bundledEntry, importBundle } from './bundle-cli.mjs';

async function runSources() {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}

const bundle = await bundledEntry();
if (bundle) await importBundle(bundle, runSources);
else await runSources();
