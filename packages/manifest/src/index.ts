export { assertSplitManifest } from './assert-split-manifest.ts';
export {
  computeDatasetId,
  finalizeDerivedManifest,
  finalizeManifest,
  writeManifest,
} from './build-manifest.ts';
export { canonicalJson, sha256Hex } from './canonical-json.ts';
export { MANIFEST_ERRORS } from './error-codes.ts';
export { hashFile } from './hash-file.ts';
export { manifestOutput } from './manifest-output.ts';
export {
  openVerifiedManifest,
  type VerifiedFile,
  VerifiedManifest,
  withVerifiedManifest,
} from './open-verified-manifest.ts';
export { checkManifest, ManifestVerifyError, readManifest, verifyManifest } from './verify-manifest.ts';
export { parentInputs, writeDerivedDir } from './write-derived-dir.ts';
