import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CharacteristicsPool } from '@asof/patterns';
import { afterEach, describe, expect, it } from 'vitest';
import { type BundleOptions, bundleCli, CLI_BUNDLE, freshBundle } from '../bin/bundle-cli.mjs';

const BUNDLER = fileURLToPath(new URL('../bin/bundle-cli.mjs', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/**
 * A two-package tree shaped like asof's: an entry that reads a data folder beside its source through
 * `import.meta.url` (as the SQL and registry folders are read) and starts a worker through its tsx shim.
 */
function fixture(): BundleOptions {
  const root = mkdtempSync(join(tmpdir(), 'asof-bundle-'));
  dirs.push(root);
  write(root, 'packages/app/package.json', '{"name":"app","type":"module"}');
  write(root, 'packages/app/tsconfig.json', '{}');
  write(root, 'packages/app/data/greeting.txt', 'hello from the data folder');
  // A dependency npm did not hoist (in the package's own node_modules), with a file per condition: the
  // bundle must import the one Node's resolver picks for an import from the package's source.
  write(
    root,
    'packages/app/node_modules/dep/package.json',
    JSON.stringify({
      name: 'dep',
      exports: { '.': { import: './esm.mjs', require: './cjs.cjs', default: './default.mjs' } },
    }),
  );
  write(root, 'packages/app/node_modules/dep/esm.mjs', "export const condition = 'import';\n");
  write(root, 'packages/app/node_modules/dep/cjs.cjs', "exports.condition = 'require';\n");
  write(root, 'packages/app/node_modules/dep/default.mjs', "export const condition = 'default';\n");
  write(
    root,
    'packages/app/src/read-greeting.ts',
    `import { readFileSync } from 'node:fs';
const DATA = new URL('../data/', import.meta.url);
export const readGreeting = (): string => readFileSync(new URL('greeting.txt', DATA), 'utf8');
`,
  );
  write(
    root,
    'packages/app/src/main.ts',
    `import { Worker } from 'node:worker_threads';
import { condition } from 'dep';
import { readGreeting } from './read-greeting.ts';
const worker = new Worker(new URL('./square-worker.mjs', import.meta.url));
worker.once('message', (n: number) => {
  console.log(JSON.stringify({ greeting: readGreeting(), squared: n, condition }));
  void worker.terminate();
});
worker.postMessage(7);
`,
  );
  // The shim would register tsx; the bundle must not run it.
  write(root, 'packages/app/src/square-worker.mjs', "throw new Error('the tsx shim ran');\n");
  write(
    root,
    'packages/app/src/square-worker.ts',
    `import { parentPort } from 'node:worker_threads';
parentPort?.on('message', (n: number) => parentPort?.postMessage(n * n));
`,
  );
  return {
    root,
    cacheDir: join(root, 'node_modules', '.cache', 'bundle'),
    entries: { main: 'packages/app/src/main.ts' },
    workers: {
      'square-worker': {
        shim: 'packages/app/src/square-worker.mjs',
        source: 'packages/app/src/square-worker.ts',
      },
    },
  };
}

function runNode(url: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [fileURLToPath(url)], { encoding: 'utf8' });
}

describe('bundleCli', () => {
  it('keeps import.meta.url naming the source file, imports dependencies as Node resolves them from it, and runs the bundled worker, not its shim', async () => {
    const options = fixture();
    const url = await bundleCli(options);
    expect(url).not.toBeNull();
    const run = runNode(url as string);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      greeting: 'hello from the data folder',
      squared: 49,
      condition: 'import',
    });
  });

  it('is fresh until a source it was built from changes, then a rebuild is fresh again', async () => {
    const options = fixture();
    expect(freshBundle(options)).toBeNull();
    const first = await bundleCli(options);
    expect(freshBundle(options)).toBe(first);
    // A copy of the checkout with the same files (its node_modules linked back, say) is not served this
    // bundle: it names the original's files.
    const copy = mkdtempSync(join(tmpdir(), 'asof-bundle-copy-'));
    dirs.push(copy);
    cpSync(join(options.root, 'packages'), join(copy, 'packages'), { recursive: true });
    expect(freshBundle({ ...options, root: copy })).toBeNull();
    writeFileSync(join(options.root, 'packages/app/tsconfig.json'), '{"compilerOptions":{}}');
    expect(freshBundle(options)).toBeNull();
    writeFileSync(join(options.root, 'packages/app/tsconfig.json'), '{}');
    expect(freshBundle(options)).toBe(first);
    const current = JSON.parse(readFileSync(join(options.cacheDir, 'current.json'), 'utf8'));
    expect(Object.keys(current.inputs)).toEqual(
      expect.arrayContaining([
        'packages/app/package.json',
        'packages/app/tsconfig.json',
        'packages/app/src/main.ts',
        'packages/app/src/read-greeting.ts',
        'packages/app/src/square-worker.ts',
      ]),
    );

    write(
      options.root,
      'packages/app/src/read-greeting.ts',
      `export const readGreeting = (): string => 'edited';\n`,
    );
    expect(freshBundle(options)).toBeNull();
    // Another checkout's cache folder beside this one: kept while that checkout exists, else pruned.
    const gone = join(dirname(options.cacheDir), 'gone-checkout');
    const alive = join(dirname(options.cacheDir), 'alive-checkout');
    for (const [dir, root] of [
      [gone, join(options.root, 'no-such-checkout')],
      [alive, options.root],
    ]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'current.json'), JSON.stringify({ root }));
    }
    // Left by a build a day and more ago: pruned by the next build.
    const stale = join(options.cacheDir, 'tmp-1-dead');
    mkdirSync(stale);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    const second = await bundleCli(options);
    expect(second).not.toBe(first);
    expect(freshBundle(options)).toBe(second);
    // The superseded bundle stays, for an asof that started from it and still loads its lazy chunks.
    expect(existsSync(fileURLToPath(first as string))).toBe(true);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(alive)).toBe(true);
    expect(JSON.parse(runNode(second as string).stdout).greeting).toBe('edited');

    // A deleted input is a stale bundle too, not an error.
    rmSync(join(options.root, 'packages/app/src/read-greeting.ts'));
    expect(freshBundle(options)).toBeNull();
  });

  it('runs the fallback when a file the bundle links to is gone, and only then', async () => {
    const options = fixture();
    const url = (await bundleCli(options)) as string;
    // A file, not `node -e`: the fixture's worker would inherit `--input-type`.
    const script = join(options.root, 'probe.mjs');
    writeFileSync(
      script,
      `const { importBundle } = await import(${JSON.stringify(pathToFileURL(BUNDLER).href)});
await importBundle(${JSON.stringify(url)}, async () => console.log('fallback ran'));
`,
    );
    const probe = () => spawnSync(process.execPath, [script], { encoding: 'utf8' });
    const whole = probe();
    expect(whole.stdout).not.toContain('fallback ran');
    expect(JSON.parse(whole.stdout).squared).toBe(49);
    rmSync(join(options.root, 'packages/app/node_modules/dep/esm.mjs'));
    const broken = probe();
    expect(broken.stderr).toBe('');
    expect(broken.stdout.trim()).toBe('fallback ran');
  });

  it('leaves the build to the process holding the lock, and takes over a killed build’s lock', async () => {
    const options = fixture();
    mkdirSync(options.cacheDir, { recursive: true });
    const lock = join(options.cacheDir, 'build.lock');
    writeFileSync(lock, '');
    expect(await bundleCli(options)).toBeNull();
    expect(existsSync(join(options.cacheDir, 'current.json'))).toBe(false);

    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    expect(await bundleCli(options)).not.toBeNull();
    expect(existsSync(lock)).toBe(false);
  });

  it('refuses an import.meta property it does not rewrite, and a worker no source starts', async () => {
    const options = fixture();
    write(
      options.root,
      'packages/app/src/read-greeting.ts',
      'export const readGreeting = () => import.meta.dirname;\n',
    );
    await expect(bundleCli(options)).rejects.toThrow(/import\.meta\.dirname is not rewritten/);

    const unused = fixture();
    write(unused.root, 'packages/app/src/main.ts', 'console.log(1);\n');
    await expect(bundleCli(unused)).rejects.toThrow(/no source starts the worker square-worker/);
    expect(readdirSync(unused.cacheDir).filter((e) => e !== 'build.lock')).not.toContain('current.json');
  });

  it('bundles the real CLI: every import.meta use rewritten, the characteristics and baselines workers bundled', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'asof-cli-bundle-'));
    dirs.push(cacheDir);
    const url = await bundleCli({ ...CLI_BUNDLE, cacheDir });
    expect(url).not.toBeNull();
    const out = dirname(fileURLToPath(url as string));
    // The bundled worker gives, bit for bit, what the characteristics give inline.
    const batch = () => {
      const values = Float64Array.from(
        { length: 560 },
        (_, i) => 0.01 * Math.sin(i * 1.7) + 0.002 * Math.cos(i * i),
      );
      return { offsets: Int32Array.from([0, 300, 560]), values };
    };
    const inline = await new CharacteristicsPool(0).run(batch());
    expect(Array.from(inline).filter(Number.isFinite).length).toBeGreaterThan(inline.length / 2);
    const worker = new Worker(join(out, 'characteristics-worker.mjs'));
    try {
      const reply = await new Promise<{ out?: Float64Array; error?: unknown }>((done, fail) => {
        worker.once('message', done);
        worker.once('error', fail);
        const b = batch();
        worker.postMessage({ id: 0, batch: b }, [b.offsets.buffer, b.values.buffer]);
      });
      expect(reply.error).toBeUndefined();
      expect(Array.from(reply.out as Float64Array)).toEqual(Array.from(inline));
    } finally {
      await worker.terminate();
    }
    // And the baselines worker (asof baselines --threads), with its sources among the inputs.
    expect(existsSync(join(out, 'baselines-worker.mjs'))).toBe(true);
    const inputs = Object.keys(JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8')).inputs);
    expect(inputs).toContain('packages/split/src/baselines-worker.ts');
    expect(inputs).toContain('packages/baselines/src/fit-garch.ts');
    expect(inputs).toContain('packages/cli/src/main.ts');
    expect(inputs).toContain('packages/transform/package.json');
    expect(inputs).toContain('packages/transform/tsconfig.json');
    expect(inputs).toContain('tsconfig.base.json');
    expect(inputs).toContain('package-lock.json');
    expect(inputs.some((p) => p.startsWith('node_modules/'))).toBe(false);
  });
});
