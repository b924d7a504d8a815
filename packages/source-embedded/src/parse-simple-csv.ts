import { InputError, implausibleValueProblem } from '@asof/schema';

export interface CsvRow {
  /** 1-based line number in the file (the header is line 1). */
  line: number;
  fields: Record<string, string>;
}

/**
 * Reads a plain comma-separated file without quoted fields (the vega-datasets files have none), LF or
 * CRLF. A row with the wrong field count is an error naming file and line, never silently padded.
 */
export function parseSimpleCsv(text: string, file: string): { header: string[]; rows: CsvRow[] } {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  const rows: CsvRow[] = [];
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i];
    if (raw === '') continue;
    const parts = raw.split(',');
    if (parts.length !== header.length) {
      throw new InputError(
        'CSV_RAGGED_ROW',
        `${file} line ${i + 1}: expected ${header.length} fields (${header.join(',')}), got ${parts.length}: ${JSON.stringify(raw)}`,
        { context: { file, line: i + 1, value: raw } },
      );
    }
    const fields: Record<string, string> = {};
    for (let c = 0; c < header.length; c++) fields[header[c]] = parts[c];
    rows.push({ line: i + 1, fields });
  }
  return { header, rows };
}

/** A finite number from a field, or an InputError naming file, line, field and value. */
export function numberField(row: CsvRow, field: string, file: string): number {
  const text = row.fields[field];
  const value = text === undefined || text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value)) {
    throw new InputError(
      'CSV_BAD_NUMBER',
      `${file} line ${row.line}, field '${field}': expected a number, got ${JSON.stringify(text ?? null)}`,
      { context: { file, line: row.line, field, value: text } },
    );
  }
  const implausible = implausibleValueProblem(value);
  if (implausible !== null) {
    throw new InputError(
      'CSV_IMPLAUSIBLE_VALUE',
      `${file} line ${row.line}, field '${field}': ${implausible}; fix the file`,
      { context: { file, line: row.line, field, value: text } },
    );
  }
  return value;
}
