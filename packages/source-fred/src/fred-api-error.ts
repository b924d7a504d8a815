import { AsofError } from '@asof/schema';

/**
 * FRED answered with its error JSON (`{error_code, error_message}`), e.g. 400 "Bad Request. The series does
 * not exist.". Names the series (or release) and the stripped URL; the API key is never part of it.
 */
export class FredApiError extends AsofError {
  readonly seriesId: string | undefined;
  readonly errorCode: number | undefined;
  readonly fredMessage: string;

  constructor(options: {
    seriesId?: string;
    what: string;
    url: string;
    errorCode?: number;
    fredMessage: string;
    cause?: unknown;
  }) {
    const subject =
      options.seriesId === undefined ? options.what : `series ${options.seriesId} (${options.what})`;
    const hint =
      options.errorCode === 400 && /series does not exist/i.test(options.fredMessage)
        ? '; check the series id on https://fred.stlouisfed.org'
        : options.errorCode === 400 && /api_key/i.test(options.fredMessage)
          ? '; set ASOF_FRED_API_KEY to a valid 32-character FRED API key'
          : options.errorCode === 429
            ? '; FRED allows 120 requests per minute, wait a minute and rerun'
            : '';
    super(
      'FRED_API_ERROR',
      `FRED refused ${subject}: ${options.errorCode ?? 'error'} ${options.fredMessage.trim()} (url ${options.url})${hint}`,
      {
        cause: options.cause,
        context: {
          series_id: options.seriesId,
          what: options.what,
          url: options.url,
          error_code: options.errorCode,
          error_message: options.fredMessage,
        },
      },
    );
    this.seriesId = options.seriesId;
    this.errorCode = options.errorCode;
    this.fredMessage = options.fredMessage;
  }
}
