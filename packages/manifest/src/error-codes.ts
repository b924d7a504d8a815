import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/manifest's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const MANIFEST_ERRORS = {
  MANIFEST_INVALID: {
    exit: 2,
    when: 'a manifest.json is not JSON or does not match the manifest schema',
    fix: 'restore the manifest, or write the output again',
  },
  MANIFEST_IN_TEMP: {
    exit: 2,
    when: 'the manifest is inside an unfinished asof output',
    fix: 'use the output path the command printed',
  },
  MANIFEST_IS_FOLDER: {
    exit: 2,
    when: 'the manifest path is a folder',
    fix: 'pass the manifest.json inside it',
  },
  MANIFEST_MISMATCH: {
    exit: 1,
    when: 'files listed by a manifest changed since asof wrote them',
    fix: 'write them again (build, split, score…) or restore them',
  },
  MANIFEST_NOT_FOUND: {
    exit: 2,
    when: 'no manifest at the given path',
    fix: "build one with 'asof build', or check the path",
  },
} as const satisfies ErrorCatalogue;
