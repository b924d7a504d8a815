// Worker threads do not inherit the tsx loader registered by the parent (bin/asof.mjs, vitest): register
// it here, as bin/asof.mjs does, then load the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./characteristics-worker.ts');
