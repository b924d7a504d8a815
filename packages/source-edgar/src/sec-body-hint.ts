/** The fix for every SEC payload zod rejects: the file is not what the SEC sent, or not from this endpoint. */
export const SEC_BODY_HINT =
  'pass the unmodified SEC response body (re-download it, or delete the bad file from the raw directory)';
