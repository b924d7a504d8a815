// Worker threads do not inherit the tsx loader registered by the parent (bin/asof.mjs, vitest): register
// it here, as bin/asof.mjs does, then load the TypeScript worker. The bin's bundle starts its own bundled
// worker instead (docs/decisions/0038).
import { register } from 'tsx/esm/api';

register();
await import('./baselines-worker.ts');
