/** One error or warning code: how the command ends, what happened, what the user does about it. */
export interface ErrorCodeEntry {
  /** 2 = bad input or usage, 1 = a failure while running, 'warning' = recorded (manifest, results, row issues) while the command goes on. */
  readonly exit: 1 | 2 | 'warning';
  /** One line: what happened. */
  readonly when: string;
  /** One line: what the user does. */
  readonly fix: string;
}

/** A package's codes (its `src/error-codes.ts`), from which docs/errors.md is written. */
export type ErrorCatalogue = Readonly<Record<string, ErrorCodeEntry>>;
