import type { ErrorCatalogue } from '@asof/schema';

/**
 * The codes of @asof/output's errors and warnings: one line on when each is raised and one on what the user does. docs/errors.md is generated from these
 * lists (npm run errors) and tests/errors-doc.test.ts checks every code at a throw site is in one of them.
 */
export const OUTPUT_ERRORS = {
  NOT_REGULAR_FILE: {
    exit: 1,
    when: 'a path asof reads is not a regular file (a FIFO, a device, a folder…)',
    fix: 'replace it with the file it should be, or rebuild the output',
  },
  OUTPUT_BUSY: {
    exit: 1,
    when: 'another asof command is writing the same output, or the output lock could not be taken',
    fix: 'wait for it to finish, or choose another --out',
  },
  OUTPUT_FOLDER_GONE: {
    exit: 1,
    when: "the output's folder does not exist (removed while asof ran?)",
    fix: 'check the path and run the command again',
  },
  OUTPUT_IS_FILE: {
    exit: 2,
    when: 'the output path is a file where a folder is written',
    fix: 'choose another --out',
  },
  OUTPUT_IS_INPUT: {
    exit: 2,
    when: 'the output path is a file a manifest this command reads lists',
    fix: 'write the output elsewhere',
  },
  OUTPUT_NOT_ALLOWED: {
    exit: 2,
    when: 'the output path is the root folder',
    fix: 'choose a folder of its own, e.g. out/mybuild',
  },
  OUTPUT_NOT_ASOF: {
    exit: 2,
    when: 'the output path holds files asof did not write',
    fix: 'choose another --out, or empty it if you mean to',
  },
  OUTPUT_NOT_WRITABLE: {
    exit: 2,
    when: "the output's store folder cannot be created",
    fix: 'choose a folder you can write to',
  },
  OUTPUT_NO_PERMISSION: {
    exit: 1,
    when: 'permission denied writing the output',
    fix: 'check the permissions, or choose an output in a folder you can write to',
  },
  OUTPUT_NO_SPACE: {
    exit: 1,
    when: 'no space left on the device, or the disk quota is used up',
    fix: 'free some space or choose an output on another disk',
  },
  OUTPUT_OTHER_KIND: {
    exit: 2,
    when: 'the output path holds another kind of asof output than the command writes',
    fix: 'choose another output, or delete it first if you mean to',
  },
  OUTPUT_OVERLAPS_INPUT: {
    exit: 2,
    when: 'the output path contains, or is inside, an input this command reads',
    fix: 'write the output somewhere else, e.g. beside it',
  },
  OUTPUT_READ_ONLY: {
    exit: 1,
    when: "the output's file system is read-only",
    fix: 'choose an output on a writable disk',
  },
  OUTPUT_STORE_NOT_ASOF: {
    exit: 2,
    when: "the output's .asof store is not one asof made",
    fix: 'move it away or choose another --out',
  },
  OUTPUT_TOO_MANY_FILES: {
    exit: 1,
    when: 'too many open files',
    fix: 'raise the open-file limit (ulimit -n) or close other programs',
  },
} as const satisfies ErrorCatalogue;
