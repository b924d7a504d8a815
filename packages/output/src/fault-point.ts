import { writeFileSync } from 'node:fs';

/**
 * Named points where the kill tests interrupt a command (tests/output-kill.test.ts): output:started,
 * run:midway (in each command), output:produced, switch:before-generation | switch:before-rename,
 * switch:before-link, switch:moved-previous, switch:before-cleanup. With
 * ASOF_FAULT=<point> the process kills itself with SIGKILL there; with ASOF_FAULT=<point>:pause it writes
 * the file ASOF_FAULT_READY and waits, so a test can send it a signal at exactly that point. Without
 * ASOF_FAULT this is a no-op. The I/O-error hooks (`probe:<ERRNO>`, `write:lock:<ERRNO>`,
 * `output:produced:<ERRNO>`) are in output-io-error.ts.
 */
export async function faultPoint(point: string): Promise<void> {
  const fault = process.env.ASOF_FAULT;
  if (!fault) return;
  if (fault === point) {
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => {});
  }
  if (fault === `${point}:pause`) {
    if (process.env.ASOF_FAULT_READY) writeFileSync(process.env.ASOF_FAULT_READY, point);
    // A pending promise alone does not keep Node's event loop alive: a timer does, until the signal comes.
    setInterval(() => {}, 1000);
    await new Promise(() => {});
  }
}
