import { AsofError } from '@asof/schema';

/**
 * A forecaster asked for information beyond its origin. Runners never catch it: a lookahead is a bug in the
 * forecaster, and the run must fail rather than produce scores.
 */
export class LookaheadError extends AsofError {
  constructor(seriesId: string, origin: string, requested: string) {
    super(
      'LOOKAHEAD',
      `lookahead: history of ${seriesId} requested as of ${requested}, after the origin ${origin}; a forecaster may only read what was public at its origin (available_at <= origin)`,
      { context: { series_id: seriesId, origin, requested } },
    );
  }
}
