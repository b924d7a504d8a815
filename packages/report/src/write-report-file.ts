import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * The one place a report is written: a temp file beside the target, renamed over it, so a reader never sees
 * half a report and a failed run leaves the previous one in place (to be switched to the project's
 * output-safety helper when it exists).
 */
export function writeReportFile(path: string, html: string): number {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, html);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return Buffer.byteLength(html);
}
