// `npm test`: the end-to-end tests (tests/, mostly one core: ARIMA fits, child processes, the model protocol)
// start at once, beside the packages' type-check, lint and tests through nx on the other lane. Run one after
// the other, the end-to-end lane ran alone for two thirds of the run on one core (issue 50; audit
// structure-2026-12 §4.1, T0). Each lane's lines carry its name; the exit code is the first failure's.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NX_DAEMON: process.env.NX_DAEMON ?? 'false' };

/** Runs `command` in `cwd`, each output line prefixed with `[name]`; resolves to its exit code. */
function lane(name, command, cwd) {
  return new Promise((done) => {
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
      });
      stream.on('end', () => {
        if (rest) process.stdout.write(`[${name}] ${rest}\n`);
      });
    }
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const started = Date.now();
const [e2e, packages] = await Promise.all([
  // The end-to-end tests first: they are the long part, on the critical path from the first second.
  lane('e2e', 'npx vitest run', join(repo, 'tests')),
  // One type-check of every TypeScript file (packages, tests, scripts, examples: tsconfig.json) and one Biome
  // run over the tree, then the packages' tests. A failure of one does not hide the others' results.
  lane(
    'packages',
    'npx tsc --noEmit -p .; c=$?; npx biome check .; l=$?; ' +
      'npx nx run-many -t test --exclude=@asof/tests --parallel=1 --outputStyle=static; t=$?; exit $((c | l | t))',
    repo,
  ),
]);
const seconds = ((Date.now() - started) / 1000).toFixed(0);
process.stdout.write(
  `npm test: end-to-end lane ${e2e === 0 ? 'passed' : `failed (exit ${e2e})`}, package lane ${packages === 0 ? 'passed' : `failed (exit ${packages})`}, ${seconds} s\n`,
);
process.exit(e2e !== 0 ? e2e : packages);
