// The CLI's TypeScript, bundled by esbuild so that `asof` starts without tsx's loader hooks, which cost
// ~1.3 ms per module on these machines (~0.6 s of the default build's wall time; docs/decisions/0038).
// Plain JavaScript: it runs before any TypeScript can be loaded. `npm ci` builds the bundle (the root
// package's `prepare`); the bin uses it only while every source it was built from is unchanged, and
// rebuilds it otherwise. Whatever goes wrong here, the bin falls back to tsx and the sources as written.
//
// The bundle names files by absolute URL: each source's own (for `import.meta.url`) and each dependency's,
// as Node resolves it from the importing source (a package's own node_modules included). So it is only
// valid for the checkout it was built in, and each checkout (by real path) has its own cache folder.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const FORMAT = 2;
const REPO = realpathSync(fileURLToPath(new URL('../../../', import.meta.url)));
const THIS_FILE = fileURLToPath(import.meta.url);

/** What the real CLI bundle is built from: `main` is the bin's entry; each worker replaces its tsx shim. */
export const CLI_BUNDLE = {
  root: REPO,
  cacheDir: join(
    REPO,
    'node_modules',
    '.cache',
    'asof-cli',
    createHash('sha256').update(REPO).digest('hex').slice(0, 16),
  ),
  entries: { main: 'packages/cli/src/main.ts' },
  workers: {
    'baselines-worker': {
      shim: 'packages/split/src/baselines-worker.mjs',
      source: 'packages/split/src/baselines-worker.ts',
    },
    'characteristics-worker': {
      shim: 'packages/patterns/src/characteristics/characteristics-worker.mjs',
      source: 'packages/patterns/src/characteristics/characteristics-worker.ts',
    },
  },
};

// `new URL('./x.mjs', import.meta.url)`, any other `import.meta.url`, and any other `import.meta.*`.
const META =
  /new URL\((['"])(\.{1,2}\/[^'"]+\.mjs)\1, import\.meta\.url\)|import\.meta\.url|import\.meta\.(\w+)/g;

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/**
 * A cache folder's `current.json` (format, the checkout's real path, the bundle folder's name, the inputs'
 * sha256), or undefined when there is none to read.
 */
function readCurrent(cacheDir) {
  try {
    return JSON.parse(readFileSync(join(cacheDir, 'current.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** A bundle folder's name from `current.json`: one path segment, so it stays inside the cache folder. */
const isBundleDir = (dir) => typeof dir === 'string' && !dir.includes('/');

/**
 * The file URL of the bundle's main entry when a bundle exists and every file it was built from (and this
 * bundler) has the content it had then; otherwise null.
 */
export function freshBundle(options = CLI_BUNDLE) {
  try {
    const current = readCurrent(options.cacheDir);
    if (current?.format !== FORMAT || !isBundleDir(current.dir)) return null;
    if (current.root !== realpathSync(options.root)) return null;
    for (const [rel, hash] of Object.entries(current.inputs)) {
      if (sha256(join(options.root, rel)) !== hash) return null;
    }
    const entry = join(options.cacheDir, current.dir, 'main.mjs');
    return existsSync(entry) ? pathToFileURL(entry).href : null;
  } catch {
    return null;
  }
}

/**
 * Rewrites what bundling would change: `import.meta.url` keeps naming the source file (SQL, registry and
 * data folders are found beside it), a worker shim's URL names the bundled worker, any other
 * `import.meta.*` stops the build rather than silently meaning something else, and each dependency is
 * imported by the URL Node resolves it to from the importing source.
 */
function sourcesAsWritten(options, rewritten) {
  const shims = new Map(
    Object.entries(options.workers).map(([name, w]) => [resolve(options.root, w.shim), name]),
  );
  const packages = resolve(options.root, 'packages') + sep;
  return {
    name: 'asof-sources-as-written',
    setup(build) {
      // Dependencies stay outside the bundle and load as they are (JavaScript needs no loader hooks), from
      // the file Node's own resolver names (its conditions, `exports`, a package's own node_modules).
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point' || args.path.startsWith('@asof/')) return undefined;
        return { path: import.meta.resolve(args.path, pathToFileURL(args.importer).href), external: true };
      });
      build.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
        if (!args.path.startsWith(packages)) return undefined;
        const text = await readFile(args.path, 'utf8');
        const self = JSON.stringify(pathToFileURL(args.path).href);
        const contents = text.replace(META, (_match, _q, spec, other) => {
          if (other) throw new Error(`${args.path}: import.meta.${other} is not rewritten for the bundle`);
          if (!spec) return self;
          const worker = shims.get(resolve(dirname(args.path), spec));
          if (!worker) return `new URL(${JSON.stringify(spec)}, ${self})`;
          rewritten.add(worker);
          return `new URL('./${worker}.mjs', import.meta.url)`;
        });
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * Deletes what is not `keep` and was last touched more than a day ago: bundles superseded by then (each is
 * touched when it stops being current, and a running asof may still load lazy chunks from its own), and
 * what a killed build left.
 */
function pruneOld(cacheDir, keep) {
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (name === keep || name === 'current.json' || name === 'build.lock') continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
    } catch {}
  }
}

/**
 * Deletes the cache folders beside `cacheDir` whose checkout is gone: each checkout has its own (a test's
 * scratch copy of the repository with node_modules linked back, for one), and nothing else would.
 */
function pruneGoneCheckouts(cacheDir) {
  const parent = dirname(cacheDir);
  for (const name of readdirSync(parent)) {
    const dir = join(parent, name);
    if (dir === cacheDir) continue;
    const root = readCurrent(dir)?.root;
    if (typeof root === 'string' && !existsSync(root)) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Builds the bundle into a new folder of `cacheDir` and points `current.json` at it (written then renamed,
 * so a reader sees the old bundle or the new one). Returns the main entry's file URL, or null when another
 * process holds the build lock (the caller then runs the sources through tsx). It runs in a child Node:
 * `import.meta.resolve` takes the importing file as parent only behind a flag in Node 20.
 */
export async function bundleCli(options = CLI_BUNDLE) {
  const child = spawnSync(
    process.execPath,
    ['--experimental-import-meta-resolve', '--no-warnings', THIS_FILE, '--build', JSON.stringify(options)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error((child.stderr || child.error?.message || 'no output').trim());
  return JSON.parse(child.stdout).url;
}

async function buildBundle(options) {
  if (import.meta.resolve('./x.mjs', 'file:///parent/of/') !== 'file:///parent/of/x.mjs')
    throw new Error('import.meta.resolve ignores its parent: run with --experimental-import-meta-resolve');
  mkdirSync(options.cacheDir, { recursive: true });
  const lock = join(options.cacheDir, 'build.lock');
  let fd;
  try {
    fd = openSync(lock, 'wx');
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
    // A lock older than a minute is a killed build's.
    if (Date.now() - statSync(lock).mtimeMs < 60_000) return null;
    rmSync(lock, { force: true });
    fd = openSync(lock, 'wx');
  }
  const tmp = join(options.cacheDir, `tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const rewritten = new Set();
    const { build } = await import('esbuild');
    const entryPoints = { ...options.entries };
    for (const [name, w] of Object.entries(options.workers)) entryPoints[name] = w.source;
    const result = await build({
      absWorkingDir: options.root,
      entryPoints,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      metafile: true,
      logLevel: 'silent',
      plugins: [sourcesAsWritten(options, rewritten)],
    });
    for (const name of Object.keys(options.workers)) {
      if (!rewritten.has(name)) throw new Error(`no source starts the worker ${name} through its shim`);
    }
    // Each package's package.json too (its `exports` decide what an `@asof/...` import resolves to), and
    // the tsconfig files esbuild reads for how to compile (class fields, for one).
    const files = new Set([relative(options.root, THIS_FILE)]);
    for (const rel of Object.keys(result.metafile.inputs)) {
      files.add(rel);
      const pkg = rel.match(/^packages\/[^/]+\//);
      if (pkg) for (const f of ['package.json', 'tsconfig.json']) files.add(`${pkg[0]}${f}`);
    }
    files.add('tsconfig.base.json');
    // And the lock file: the bundle names each dependency's file, which an install may move.
    files.add('package-lock.json');
    for (const rel of files) if (!existsSync(join(options.root, rel))) files.delete(rel);
    const inputs = {};
    for (const rel of [...files].sort()) inputs[rel] = sha256(join(options.root, rel));
    const dir = `b-${createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 16)}`;
    const final = join(options.cacheDir, dir);
    if (existsSync(final)) rmSync(tmp, { recursive: true, force: true });
    else renameSync(tmp, final);
    const previous = readCurrent(options.cacheDir)?.dir;
    const pointer = join(options.cacheDir, `current.json.${process.pid}`);
    writeFileSync(pointer, JSON.stringify({ format: FORMAT, root: realpathSync(options.root), dir, inputs }));
    renameSync(pointer, join(options.cacheDir, 'current.json'));
    if (isBundleDir(previous) && previous !== dir) {
      const now = new Date();
      try {
        utimesSync(join(options.cacheDir, previous), now, now);
      } catch {}
    }
    pruneOld(options.cacheDir, dir);
    pruneGoneCheckouts(options.cacheDir);
    return pathToFileURL(join(final, 'main.mjs')).href;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    closeSync(fd);
    rmSync(lock, { force: true });
  }
}

/** The bundle's main entry, rebuilt first if a source changed; null when the sources should run through tsx. */
export async function bundledEntry(options = CLI_BUNDLE) {
  if (process.env.ASOF_BUNDLE === 'off') return null;
  const fresh = freshBundle(options);
  if (fresh) return fresh;
  try {
    return await bundleCli(options);
  } catch {
    return null;
  }
}

/**
 * Imports the bundle's entry. If a file it links to is gone (a dependency moved under it), Node fails while
 * linking, before any of it runs, and `fallback` (the sources through tsx) runs instead.
 */
export async function importBundle(url, fallback) {
  try {
    await import(url);
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    await fallback();
  }
}

// `node packages/cli/bin/bundle-cli.mjs` (the root package's `prepare`): build now, never fail the install.
// `--build <options>` is bundleCli's child, which prints the entry's URL as JSON.
if (process.argv[1] && resolve(process.argv[1]) === THIS_FILE) {
  if (process.argv[2] === '--build') {
    try {
      process.stdout.write(JSON.stringify({ url: await buildBundle(JSON.parse(process.argv[3])) }));
    } catch (err) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
    }
  } else {
    try {
      const started = performance.now();
      const url = await bundleCli();
      console.log(
        url
          ? `asof: CLI bundled in ${Math.round(performance.now() - started)} ms (${relative(REPO, fileURLToPath(url))})`
          : 'asof: another process is bundling the CLI',
      );
    } catch (err) {
      console.warn(`asof: the CLI was not bundled (it will run through tsx): ${err.message}`);
    }
  }
}
