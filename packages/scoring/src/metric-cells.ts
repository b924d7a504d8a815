import type { ModelForecasts } from './align-forecasts.ts';
import type { EvaluationPanel } from './build-evaluation-panel.ts';
import type { OverlapCheck } from './check-overlap.ts';
import type { MetricValue, ScoringConfig } from './results-schema.ts';
import type { TaskRow } from './score-types.ts';

/** A unit of the run: its taxonomy keys and its scored series (panel indices). */
export interface UnitInfo {
  scope: string;
  category: string;
  frequency: string;
  series: number[];
}

/** What one scoring run needs besides its models: the panel, its scored series and units, the settings. */
export interface ScoringScope {
  panel: EvaluationPanel;
  /** Unit key of each series scored in this run (undefined: not scored). */
  seriesUnit: (string | undefined)[];
  tasksBySeries: TaskRow[][];
  unitInfo: Map<string, UnitInfo>;
  /** Steps between origins per unit, measured on the full panel. */
  spacingOf: (unit: string) => number;
  config: ScoringConfig;
  /** Overlap of the split's origins (the full panel's). */
  overlap: OverlapCheck;
  /** Models whose verdict rows are wanted (default: every model but the random walk). */
  verdictsFor?: ReadonlySet<string>;
  step: (what: string) => void;
}

interface Acc {
  model: string;
  unit: string;
  family: MetricValue['family'];
  aspect: string;
  metric: string;
  direction: MetricValue['direction'];
  sum: number;
  n: number;
  /** A value (finite or not) was recorded: the model is scored on this cell. */
  touched: boolean;
}

/**
 * Accumulators per (unit, metric) cell, one per model (by index), so the hot loops look a cell up once per
 * task, not once per model. A cell's value is the mean of the finite values put into it (the unit mean over
 * series); a cell that was touched only with non-finite values is kept with value null.
 */
export class MetricCells {
  private readonly cells = new Map<string, Acc[]>();
  private readonly modelIndex: Map<string, number>;

  constructor(readonly models: readonly ModelForecasts[]) {
    this.modelIndex = new Map(models.map((m, i) => [m.model, i]));
  }

  /** The accumulators of one cell, indexed like `models`. */
  cell(
    unit: string,
    family: Acc['family'],
    aspect: string,
    metric: string,
    direction: Acc['direction'],
  ): Acc[] {
    const key = `${unit}\u0000${metric}`;
    let c = this.cells.get(key);
    if (!c) {
      c = this.models.map((m) => ({
        model: m.model,
        unit,
        family,
        aspect,
        metric,
        direction,
        sum: 0,
        n: 0,
        touched: false,
      }));
      this.cells.set(key, c);
    }
    return c;
  }

  put(a: Acc, value: number): void {
    a.touched = true;
    if (Number.isFinite(value)) {
      a.sum += value;
      a.n++;
    }
  }

  add(
    model: string,
    unit: string,
    family: Acc['family'],
    aspect: string,
    metric: string,
    direction: Acc['direction'],
    value: number,
  ): void {
    this.put(this.cell(unit, family, aspect, metric, direction)[this.modelIndex.get(model)!], value);
  }

  /** Every touched cell as a MetricValue, sorted by unit, family, metric, model. */
  values(): MetricValue[] {
    return [...this.cells.values()]
      .flat()
      .filter((a) => a.touched)
      .map((a) => ({
        model: a.model,
        unit: a.unit,
        family: a.family,
        aspect: a.aspect,
        metric: a.metric,
        direction: a.direction,
        value: a.n ? a.sum / a.n : null,
        series: a.n,
      }))
      .sort(compareValues);
  }
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order of results.json `values`: unit, family, metric, model. */
export function compareValues(x: MetricValue, y: MetricValue): number {
  return cmp(x.unit, y.unit) || cmp(x.family, y.family) || cmp(x.metric, y.metric) || cmp(x.model, y.model);
}
