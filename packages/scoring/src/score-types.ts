/**
 * The in-memory contract the scorer works on. File readers (the split's Parquet, forecast CSV/Parquet)
 * convert into these; nothing past this boundary touches a file.
 */

/** One row of the build's tasks table: a metric column the registry assigns to an evaluation series. */
export interface TaskRow {
  series_id: string;
  aspect: string;
  metric: string;
  p: string | null;
  h: string | null;
  p_steps: number | null;
  h_steps: number | null;
  scope: string;
  category: string;
  detail_category: string;
  frequency: string;
}

/** One forecast origin of one series, as the split defines it. */
export interface OriginRow {
  series_id: string;
  /** ISO instant (or date) of the origin; matched to forecast origins as an instant. */
  origin: string;
  /**
   * The origin's period in the series' own terms (`2019-12`, `2019Q4`, `FY2019`, `2020-03-04`; the split's
   * origin_label). A forecast may name the origin by it instead of the instant. Optional: older splits lack it.
   */
  origin_label?: string;
  /** Number of target steps after the origin (H). */
  horizon: number;
  /** y_o: the last input value known at the origin (of an earlier step than the origin's own when released late). */
  last_value: number;
  /**
   * The last L input values known at the origin, oldest first, ending with y_o (so
   * `history_tail[L − 1] === last_value`). Needed for drift / seasonal-naive baselines, for references
   * y_{o+h−p} with p > h, and for the random walk's volatility; optional.
   */
  history_tail?: number[];
  /**
   * Grid steps between the origin's own step (origin_index) and the step of each history_tail value, same
   * length: 0 for the origin's step, and the last entry u ≥ 1 when the origin's own value is not public at
   * the origin (a publication lag). The seasonal-naive and drift baselines count on the grid with it.
   * Optional: without it the tail is taken as consecutive grid steps ending at the origin's step.
   */
  history_tail_back?: number[];
  /**
   * The whole history served as of the origin (the as-of view at the origin of everything the split
   * serves): y_1, its first value whose grid step the split gives, and that step's distance back from the
   * origin's own step (origin_index − y_1's step). The drift baseline's slope is ln(y_o/y_1)/(steps from y_1
   * to y_o) when both are positive, else (y_o − y_1)/(steps) (Hyndman's rwf drift on the grid, driftPath,
   * docs/decisions/0009). Optional: without them the history tail is taken as the whole history.
   */
  history_first?: number;
  history_first_back?: number;
  /**
   * Values of that history before the tail, oldest first, and their grid steps back from the origin's own
   * step: as many as the random walk's volatility window needs beyond the tail (randomWalkSigma; the split's
   * lookback is 4 steps for a quarterly series). Optional: without them σ̂ comes from the tail alone.
   */
  history_before?: number[];
  history_before_back?: number[];
  /** Position of the origin on the series' step grid (the split's origin_index); used to check spacing. */
  origin_index?: number;
  /**
   * The origin's knowledge window (the split's `window`, made with --model-cutoff and --run-date): T1 (target
   * known before the model cutoff), T2 (after it, known by the run date), T3 (pending). Absent when the split
   * has no cutoff. The scorer scores each window present beside all origins (results.json windows).
   */
  window?: ScoringWindow;
}

/** The knowledge windows a split labels its origins with (packages/calendar label-window.ts). */
export const SCORING_WINDOWS = ['T1', 'T2', 'T3'] as const;
export type ScoringWindow = (typeof SCORING_WINDOWS)[number];

/** One realised target value: y_{o+step}. */
export interface TargetRow {
  series_id: string;
  origin: string;
  step: number;
  value: number;
}

/** One submitted forecast value ŷ_{o+step}, with optional quantiles ('q0.05' → value) or samples. */
export interface ForecastRow {
  model: string;
  series_id: string;
  origin: string;
  step: number;
  value: number;
  quantiles?: Record<string, number>;
  samples?: number[];
}

// The baseline names are the baselines' own (@asof/baselines); the scorer's contract names them too.
export {
  BASELINE_MODELS,
  type BaselineModel,
  FITTED_BASELINE_MODELS,
  type FittedBaselineModel,
  POINT_BASELINE_MODELS,
  type PointBaselineModel,
  RANDOM_WALK,
} from '@asof/baselines';
