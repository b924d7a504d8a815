/** An error's message, prefixed with its Node-style code (ECONNRESET…) when the message does not name it. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code)
      ? `${code} ${error.message}`
      : error.message;
  }
  return String(error);
}
