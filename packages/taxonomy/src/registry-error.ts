import { InputError } from '@asof/schema';

/** Where a registry row came from, so every load error can name the file and line. */
export interface RowOrigin {
  file: string;
  path: string;
  line: number;
}

/**
 * A registry file that does not meet its contract (code REGISTRY_INVALID). The message starts with
 * "<file> line <n>:" and ends with the full path, so an editor can jump to the row.
 */
export class RegistryError extends InputError {
  constructor(origin: RowOrigin, problem: string, context: Record<string, unknown> = {}) {
    super('REGISTRY_INVALID', `${origin.file} line ${origin.line}: ${problem} (in ${origin.path})`, {
      context: { file: origin.file, path: origin.path, line: origin.line, ...context },
    });
  }
}
