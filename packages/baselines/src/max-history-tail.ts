/**
 * History values kept per origin: the scorer's history_tail and the window the fitted baselines see in
 * `asof baselines` (originWindow), so both fit the same values. Enough for a 1y reference on daily series
 * and any season length.
 */
export const MAX_HISTORY_TAIL = 400;
