import { HttpError } from '@asof/http';
import { AsofError } from '@asof/schema';
import { FredApiError } from './fred-api-error.ts';

/** FRED's error JSON, recovered from an HttpError (whose message carries a scrubbed body snippet). */
function fredErrorFrom(error: unknown): { code?: number; message: string } | undefined {
  if (!(error instanceof HttpError)) return undefined;
  const m = /"error_message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(error.message);
  if (m === null) return undefined;
  const c = /"error_code"\s*:\s*(\d+)/.exec(error.message);
  let message = m[1];
  try {
    message = JSON.parse(`"${m[1]}"`);
  } catch {
    // keep the raw text
  }
  return { code: c === null ? error.status : Number(c[1]), message };
}

/**
 * The error to throw for a failed FRED request: FRED's own error JSON → FredApiError; another asof error is
 * kept (same code and exit) but names the series and the URL without the key; anything else as it came.
 */
export function explainFredFailure(
  error: unknown,
  request: { seriesId: string | undefined; what: string; publicUrl: string },
  scrub: (text: string) => string,
): unknown {
  const { seriesId, what, publicUrl } = request;
  const fred = fredErrorFrom(error);
  if (fred !== undefined) {
    return new FredApiError({
      seriesId,
      what,
      url: publicUrl,
      errorCode: fred.code,
      fredMessage: scrub(fred.message),
      cause: error,
    });
  }
  if (error instanceof AsofError) {
    return new AsofError(
      error.code,
      scrub(`FRED ${seriesId === undefined ? what : `series ${seriesId} (${what})`}: ${error.message}`),
      {
        cause: error,
        exitCode: error.exitCode,
        context: { ...error.context, series_id: seriesId, url: publicUrl },
      },
    );
  }
  return error;
}
