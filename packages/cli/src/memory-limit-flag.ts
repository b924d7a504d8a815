import { InputError, MEMORY_LIMIT_RANGE, memoryLimitProblem } from '@asof/schema';

/** A command's --memory-limit: what the pipeline field duckdb.memory_limit takes, else bad usage (exit 2). */
export function memoryLimitFlag(value: string | undefined, usage: string): string | undefined {
  const problem = value === undefined ? null : memoryLimitProblem(value);
  if (problem !== null) {
    throw new InputError(
      'USAGE',
      `--memory-limit ${value}: ${problem}; expected ${MEMORY_LIMIT_RANGE}\n  usage: ${usage}`,
    );
  }
  return value;
}
