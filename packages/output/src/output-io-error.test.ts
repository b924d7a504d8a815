import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRegularFile, readRegularFile } from './open-regular-file.ts';
import { checkOutputWritable, faultErrno, OutputIoError, outputIoError } from './output-io-error.ts';
import { acquireOutputLock } from './output-lock.ts';

let root: string;
const saved = { fault: process.env.ASOF_FAULT, free: process.env.ASOF_MIN_FREE_MB };
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'asof-io-test-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  for (const [k, v] of [
    ['ASOF_FAULT', saved.fault],
    ['ASOF_MIN_FREE_MB', saved.free],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const errno = (code: string, path: string, syscall = 'write') =>
  Object.assign(new Error(`${code}: raw, ${syscall} '${path}'`), { code, path, syscall });

describe('openRegularFile (audit 2.12)', () => {
  it('opens a regular file; refuses a FIFO, a folder and a device at once, naming what it is', () => {
    writeFileSync(join(root, 'f'), 'data');
    expect(readRegularFile(join(root, 'f')).toString()).toBe('data');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    mkdirSync(join(root, 'dir'));
    for (const [path, what] of [
      [join(root, 'pipe'), /is not a regular file \(it is a FIFO \(named pipe\)\)/],
      [join(root, 'dir'), /it is a folder/],
      ['/dev/null', /it is a character device/],
    ] as const) {
      expect(() => openRegularFile(path)).toThrow(what);
      expect(() => openRegularFile(path)).toThrow(
        expect.objectContaining({ code: 'NOT_REGULAR_FILE', exitCode: 1 }),
      );
    }
    expect(() => openRegularFile(join(root, 'missing'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('outputIoError (audit 14.1, 13.2b)', () => {
  it('names the path, the cause and the fix in one line for each errno, and leaves other errors alone', () => {
    for (const [code, words, fix] of [
      ['EROFS', /the file system is read-only \(EROFS\)/, /writable disk/],
      ['ENOSPC', /no space left on the device \(ENOSPC\)/, /free some space/],
      ['EACCES', /permission denied \(EACCES\)/, /permissions/],
      ['EPERM', /operation not permitted \(EPERM\)/, /permissions/],
    ] as const) {
      const e = outputIoError(errno(code, '/x/y/lock'));
      expect(e).toBeInstanceOf(OutputIoError);
      expect(e?.message).toMatch(/^cannot write \/x\/y\/lock: /);
      expect(e?.message).toMatch(words);
      expect(e?.message).toMatch(fix);
      expect(e?.message).not.toContain('\n');
      expect(e?.exitCode).toBe(1);
    }
    expect(outputIoError(errno('EISDIR', '/x'))).toBeNull();
    expect(outputIoError(new Error('plain'))).toBeNull();
    expect(
      outputIoError(errno('EROFS', '/x/.asof/u/tmp-1-1-a/r.json'), undefined, () => 'out/u')?.message,
    ).toMatch(/^cannot write out\/u:/);
  });

  it('a lock that cannot be written (EROFS, injected) is an OutputIoError naming the output and its lock', () => {
    const store = join(root, '.asof', 'u');
    mkdirSync(store, { recursive: true });
    process.env.ASOF_FAULT = 'write:lock:EROFS';
    expect(() => acquireOutputLock(store, join(root, 'u'), 'asof build')).toThrow(
      new RegExp(
        `cannot write ${join(root, 'u')} \\(its lock ${join(store, 'lock')}\\): the file system is read-only`,
      ),
    );
    delete process.env.ASOF_FAULT;
    expect(() => faultErrno('write:lock', 'x')).not.toThrow();
  });
});

describe('checkOutputWritable: before the work (audit 14.2, 13.2b)', () => {
  it('passes a writable folder with room; names the folder when its disk has less than ASOF_MIN_FREE_MB free', () => {
    expect(() => checkOutputWritable(join(root, 'a', 'b', 'out'), '--out', 'a/b/out')).not.toThrow();
    process.env.ASOF_MIN_FREE_MB = String(2 ** 50);
    expect(() => checkOutputWritable(join(root, 'a', 'b', 'out'), '--out', 'a/b/out')).toThrow(
      new RegExp(`^--out a/b/out: only .* free on the disk of ${root} `),
    );
  });

  it('a read-only folder is named as read-only (EROFS), not ENOENT (injected probe)', () => {
    process.env.ASOF_FAULT = 'probe:EROFS';
    expect(() => checkOutputWritable(join(root, 'new', 'out'), '--out', 'new/out')).toThrow(
      new RegExp(`^--out new/out: cannot write in ${root}: the file system is read-only \\(EROFS\\)`),
    );
  });

  it.skipIf(process.getuid?.() === 0)(
    'a chmod 0555 folder is EACCES (skipped when running as root: chmod does not stop root)',
    () => {
      chmodSync(root, 0o555);
      try {
        expect(() => checkOutputWritable(join(root, 'out'), '--out', 'out')).toThrow(
          /permission denied \(EACCES\)/,
        );
      } finally {
        chmodSync(root, 0o755);
      }
    },
  );
});
