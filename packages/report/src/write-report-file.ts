import { writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { planOutput, writeOutputFile } from '@asof/output';

/**
 * The one place a report is written (docs/decisions/0010): a temp file in the output's store, renamed over
 * the target in one step, so a reader never sees half a report and a failed run leaves the previous one. An
 * existing file is replaced only when asof wrote it (an asof report); the report may not overwrite or lie
 * inside what it reads.
 */
/** What the report reads: its output may not overlap these. */
function reportInputs(inputs: { manifestPath: string; resultsPath?: string }): string[] {
  return [
    dirname(inputs.manifestPath),
    inputs.manifestPath,
    ...(inputs.resultsPath ? [inputs.resultsPath] : []),
  ];
}

/** Refuses an unusable --out before any work (the same check runs again when the report is written). */
export function checkReportOutput(
  path: string,
  inputs: { manifestPath: string; resultsPath?: string },
): void {
  planOutput(path, 'file', { command: 'asof report', writes: 'report', inputs: reportInputs(inputs) });
}

export async function writeReportFile(
  path: string,
  html: string,
  inputs: { manifestPath: string; resultsPath?: string },
): Promise<{ bytes: number; path: string }> {
  const { path: written } = await writeOutputFile(
    path,
    {
      command: 'asof report',
      writes: 'report',
      inputs: reportInputs(inputs),
    },
    async ({ file }) => writeFileSync(file, html),
  );
  return { bytes: Buffer.byteLength(html), path: written };
}
