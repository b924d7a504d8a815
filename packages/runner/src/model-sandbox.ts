import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { isAsofOutputDir } from '@asof/output';
import { InputError } from '@asof/schema';
import { modelNotStarted } from './model-process.ts';

/** `--sandbox`: auto (use bubblewrap where it works, else say so), on (required), off. */
export type SandboxMode = 'auto' | 'on' | 'off';

/** What the run record says about the sandbox (results.json `runs[].sandbox`). */
export interface SandboxRecord {
  kind: 'bubblewrap' | 'none';
  /** For bubblewrap its version; for none, why (not installed, cannot create namespaces, --sandbox off). */
  detail: string;
  /** The asof outputs hidden from the model (relative to the working folder when inside it). */
  hidden: string[];
  /** Whether the model could reach the network. */
  network: boolean;
}

export interface ModelSandbox {
  record: SandboxRecord;
  /** The argv to start instead of the model's own: bwrap … -- argv, or argv itself. */
  wrap(argv: readonly string[]): string[];
}

function findOnPath(program: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, program);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

const probed = new Map<string, { ok: true; version: string } | { ok: false; why: string }>();

/**
 * Whether bwrap can make the sandbox on this machine: installed is not enough, since containers often
 * forbid the namespaces it needs. Probed once per process with the very options a model run uses.
 */
function probeBwrap(bwrap: string): { ok: true; version: string } | { ok: false; why: string } {
  const known = probed.get(bwrap);
  if (known) return known;
  const r = spawnSync(bwrap, [...BASE_ARGS, '--', 'true'], { encoding: 'utf8', timeout: 10_000 });
  const result =
    r.status === 0
      ? {
          ok: true as const,
          version: spawnSync(bwrap, ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'bubblewrap',
        }
      : {
          ok: false as const,
          why: `${bwrap} cannot create its namespaces here (${(r.stderr || r.error?.message || `status ${r.status}`).trim().split('\n')[0]})`,
        };
  probed.set(bwrap, result);
  return result;
}

/**
 * The whole file system read-only, a private /dev and /proc, no network, its own PID namespace (the
 * model and everything it starts end with it) and session (no writing into asof's terminal), and no
 * capabilities.
 */
const BASE_ARGS = [
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  '--unshare-net',
  '--unshare-pid',
  '--unshare-ipc',
  '--die-with-parent',
  '--new-session',
  // Run as root, bwrap keeps root's capabilities in the sandbox: a model could unmount what hides the answers.
  '--cap-drop',
  'ALL',
];

const SKIP = new Set(['node_modules', '.git', 'proc', 'sys', 'dev']);
/** Depth and breadth of the search for asof outputs: enough for out/…, a scratch folder, a fixtures tree. */
const MAX_DEPTH = 3;
const MAX_DIRS = 5000;

/**
 * The asof outputs (universes, splits, CSV and FinTSB exports, score folders: any folder whose manifest or
 * results document asof wrote, and the `.asof` stores that hold their generations) under `roots`, down to
 * MAX_DEPTH levels. An output is hidden whole, so the search does not enter it; other dot-folders and
 * node_modules are skipped, and symlinks are not followed further than the output they name.
 */
function asofOutputsUnder(roots: string[]): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  let visited = 0;
  const walk = (dir: string, depth: number) => {
    if (seen.has(dir) || visited++ > MAX_DIRS) return;
    seen.add(dir);
    if (isAsofOutputDir(dir)) {
      found.add(dir);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      // An asof store holds nothing but asof outputs (every generation, every temp folder): hidden whole.
      if (e.name === '.asof' && e.isDirectory()) found.add(path);
      else if (e.name.startsWith('.') || SKIP.has(e.name)) continue;
      // An output's name is a symlink to its generation in the store: the generation is what is hidden.
      else if (e.isSymbolicLink()) {
        const target = real(path);
        if (target !== path && isAsofOutputDir(target)) found.add(target);
      } else if (e.isDirectory()) walk(path, depth + 1);
    }
  };
  for (const root of roots) walk(root, 0);
  return [...found];
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(`${parent}${sep}`);

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export interface SandboxOptions {
  mode: SandboxMode;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The split folder (its targets.parquet is the answer). */
  splitDir: string;
  /** `--hide`: more folders or files the model must not see. */
  hide?: readonly string[];
}

/** Whether `--sandbox auto` would sandbox a model here: bubblewrap's version, or why not. */
export function sandboxAvailable(
  env: NodeJS.ProcessEnv = process.env,
): { ok: true; version: string } | { ok: false; why: string } {
  const bwrap = findOnPath('bwrap', env);
  return bwrap ? probeBwrap(bwrap) : { ok: false, why: 'bwrap (Debian package bubblewrap) is not on PATH' };
}

/**
 * The sandbox a model runs in: with bubblewrap, the split folder, every asof output near it and near the
 * working folder (the universe, exports such as targets.csv) and `--hide` paths are covered by empty
 * read-only folders, the network is cut, and only the working folder and the temp folder are writable.
 * Without bubblewrap (or with --sandbox off) the model runs as it is, and the record says so.
 */
export function modelSandbox(options: SandboxOptions): ModelSandbox {
  const none = (detail: string): ModelSandbox => ({
    record: { kind: 'none', detail, hidden: [], network: true },
    wrap: (argv) => [...argv],
  });
  if (options.mode === 'off') return none('--sandbox off');
  const bwrap = findOnPath('bwrap', options.env);
  const probe = sandboxAvailable(options.env);
  if (!probe.ok) {
    if (options.mode === 'on') {
      throw new InputError(
        'RUN_NO_SANDBOX',
        `--sandbox on: ${probe.why}; install it (apt-get install bubblewrap) or run with --sandbox auto to run the model unsandboxed`,
      );
    }
    return none(probe.why);
  }
  const cwd = real(options.cwd);
  // The split as named (a symlink into its store) and as it is: its neighbours are searched from the name.
  const splitDir = resolve(options.cwd, options.splitDir);
  // Only the working folder is kept visible whatever it is in (the model starts there). A file the
  // command names is not: a model naming `--targets SPLIT/targets.parquet` must still not read it.
  const keep = [cwd];
  const candidates = [
    real(splitDir),
    ...asofOutputsUnder([dirname(splitDir), cwd]),
    ...(options.hide ?? []).map((h) => real(resolve(options.cwd, h))),
  ];
  // A folder that holds the working folder cannot be hidden: the model would not start.
  const kept = [...new Set(candidates)].filter((p) => existsSync(p) && !keep.some((k) => inside(k, p)));
  // One mount covers what lies inside it (a path under an empty tmpfs could not be mounted on).
  const hidden = kept.filter((p) => !kept.some((q) => q !== p && inside(p, q))).sort();
  const writable = [...new Set([cwd, real(tmpdir())])];
  const args = [bwrap as string, ...BASE_ARGS];
  for (const w of writable) args.push('--bind', w, w);
  for (const h of hidden) {
    // A file is covered by /dev/null, a folder by an empty read-only tmpfs (mounted after the writable binds).
    if (statSync(h).isDirectory()) args.push('--tmpfs', h, '--remount-ro', h);
    else args.push('--ro-bind', '/dev/null', h);
  }
  args.push('--chdir', cwd);
  const shown = (p: string) => (inside(p, cwd) ? relative(cwd, p) || '.' : p);
  return {
    record: { kind: 'bubblewrap', detail: probe.version, hidden: hidden.map(shown), network: false },
    wrap: (argv) => {
      checkProgram(argv[0], options.cwd, options.env);
      return [...args, '--', ...argv];
    },
  };
}

/**
 * Inside the sandbox bwrap starts the program, so a missing one would look like a model that exited 1:
 * it is checked here, as spawn would, and reported as bad input (exit 2).
 */
function checkProgram(program: string, cwd: string, env: NodeJS.ProcessEnv): void {
  const path = program.includes('/') ? resolve(cwd, program) : findOnPath(program, env);
  const fail = (code: string) => {
    throw modelNotStarted(program, Object.assign(new Error(code), { code }));
  };
  if (!path || !existsSync(path)) fail('ENOENT');
  try {
    accessSync(path as string, constants.X_OK);
  } catch {
    fail('EACCES');
  }
}

/** Checks `--sandbox`. */
export function sandboxMode(text: string | undefined): SandboxMode {
  if (text === undefined) return 'auto';
  if (text === 'auto' || text === 'on' || text === 'off') return text;
  throw new InputError('USAGE', `--sandbox ${text}: expected auto, on or off, e.g. --sandbox on`);
}
