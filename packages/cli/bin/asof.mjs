#!/usr/bin/env node
// The asof command. Sources are TypeScript run through tsx: no build step, one toolchain.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
