import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/publish's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const PUBLISH_ERRORS = {
  PUBLISH_KIND_UNSUPPORTED: {
    exit: 2,
    when: "asof publish was given a manifest that is neither a universe nor a split (kind 'universe' or 'split')",
    fix: "publish the universe 'asof build' wrote or the split 'asof split' wrote",
  },
  PUBLISH_TEST_ONLY_INPUT: {
    exit: 2,
    when: 'the universe read a raw folder marked test-only (a TEST-ONLY file, or a PROVENANCE.md saying "only as test fixtures", in it or a folder above it)',
    fix: 'publish with --private (a folder for your own use, not for redistribution), or build from inputs you may redistribute',
  },
  PUBLISH_UNIVERSE_NEEDED: {
    exit: 2,
    when: "a split holds series that are not synthetic, and its universe's inputs (where their terms are checked) were not given",
    fix: 'add --universe U/manifest.json (the universe the split was made from), or --private',
  },
  PUBLISH_UNIVERSE_MISMATCH: {
    exit: 2,
    when: "--universe names a manifest whose dataset_id is not the split's parent_dataset_id",
    fix: "pass the universe the split was made from: the split's manifest.json names its dataset_id as parent_dataset_id",
  },
} as const satisfies ErrorCatalogue;
