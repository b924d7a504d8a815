export * from './assert-split-manifest.ts';
export * from './build-manifest.ts';
export * from './canonical-json.ts';
export * from './error-codes.ts';
export * from './hash-file.ts';
export * from './manifest-output.ts';
export * from './open-verified-manifest.ts';
export * from './verify-manifest.ts';
