import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Audit 1.9: a signal acts at once even while synchronous JavaScript runs, and none is lost around it.
const dir = mkdtempSync(join(tmpdir(), 'asof-signal-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const INDEX = new URL('./index.ts', import.meta.url).pathname;

/**
 * Runs `body` (TypeScript, with installSignalCleanup done and `spin(ms)` a busy loop) in a child Node,
 * sends `signal` once it printed "ready", and resolves with its exit and the seconds from the signal.
 */
function child(
  body: string,
  signal: NodeJS.Signals,
  delayMs: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; seconds: number }> {
  const file = join(dir, `c-${Math.random().toString(16).slice(2)}.mts`);
  writeFileSync(
    file,
    `import { installSignalCleanup, runInterruptibly } from ${JSON.stringify(INDEX)};
installSignalCleanup((l) => process.stderr.write(l + '\\n'));
const spin = (ms: number) => { const t = Date.now(); let x = 0; while (Date.now() - t < ms) x++; return x; };
void runInterruptibly;
process.stderr.write('ready\\n');
${body}
`,
  );
  return new Promise((done) => {
    const c = spawn(process.execPath, ['--import', 'tsx', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let sent = 0;
    c.stderr.on('data', (d) => {
      stderr += d;
      if (!sent && stderr.includes('ready')) {
        sent = -1;
        setTimeout(() => {
          sent = performance.now();
          c.kill(signal);
        }, delayMs);
      }
    });
    c.on('exit', (code, sig) =>
      done({ code, signal: sig, stderr, seconds: sent > 0 ? (performance.now() - sent) / 1000 : -1 }),
    );
  });
}

describe('runInterruptibly', () => {
  it('SIGINT stops synchronous work at once and runs the cleanup (exit 130)', async () => {
    const r = await child(
      `await runInterruptibly(() => spin(20_000)); process.stderr.write('finished\\n');`,
      'SIGINT',
      500,
    );
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/interrupted by SIGINT; temp files removed/);
    expect(r.stderr).not.toMatch(/finished/);
    expect(r.seconds).toBeGreaterThan(0);
    expect(r.seconds).toBeLessThan(3);
  }, 60_000);

  it('SIGTERM during synchronous work ends the process at once (its default action)', async () => {
    const r = await child(
      `await runInterruptibly(() => spin(20_000)); process.stderr.write('finished\\n');`,
      'SIGTERM',
      500,
    );
    expect(r.signal ?? r.code, r.stderr).toBe('SIGTERM');
    expect(r.seconds).toBeLessThan(3);
  }, 60_000);

  it('a SIGINT that came during synchronous work before the run is not lost when the run takes the listeners off', async () => {
    const r = await child(
      `spin(1_500); await runInterruptibly(() => spin(1_500)); spin(50); process.stderr.write('finished\\n');`,
      'SIGINT',
      300,
    );
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(/finished/);
  }, 60_000);
});
