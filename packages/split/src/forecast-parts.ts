import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_QUANTILE_LEVELS, quantileColumnName } from '@asof/baselines';
import { DOUBLE, type Duck, INTEGER, PARQUET_ROW_GROUP_ROWS, quoteIdent } from '@asof/duck';

/** One baseline's forecasts over a block of origins, in task order; no quantiles for a point baseline. */
export interface ForecastColumns {
  originNo: number[];
  step: number[];
  value: number[];
  /** One column per BASELINE_QUANTILE_LEVELS entry (ARIMA, GARCH), or null (the point baselines). */
  quantiles: (number | null)[][] | null;
}

/** Row groups per part: a whole number, so the joined file is one sorted COPY's bytes. */
const ROW_GROUPS_PER_PART = 8;
/** (model_rank, origin_no, step) as one exact number for the order check: step < 2^16, origin_no < 2^31. */
const STEP_BITS = 2 ** 16;
const CHUNK_COLUMNS =
  'seq DOUBLE, model_no INTEGER, model_rank INTEGER, origin_no INTEGER, step INTEGER, value DOUBLE';
const RANK_BITS = 2 ** 47;

/**
 * The forecasts file written as sorted Parquet parts while the forecasts are made, then joined by
 * Duck.concatParquet: no sort of the whole file, so its memory and spill stay one part's, however many
 * forecasts an all-origins split has (hundreds of millions of rows on the default universe). Rows must
 * arrive in the file's order — model in name order, then origin_no (series_id, origin), then step —
 * which is checked as they come. A numbered sequence (seq) cuts the parts every few row groups, so where the
 * cuts fall does not depend on how the caller batched the rows, and neither do the file's bytes.
 */
export class ForecastParts {
  /** Rows appended so far. */
  rows = 0;
  private written = 0;
  private lastKey = -1;
  private readonly files: string[] = [];

  private constructor(
    private readonly duck: Duck,
    private readonly dir: string,
    /** The query of one part: reads forecast_chunk rows with $lo ≤ seq < $hi, ordered on the file's grain. */
    private readonly partQuery: string,
    private readonly partRows: number,
  ) {}

  static async open(
    duck: Duck,
    dir: string,
    partQuery: string,
    rowGroupsPerPart = ROW_GROUPS_PER_PART,
  ): Promise<ForecastParts> {
    mkdirSync(dir, { recursive: true });
    // Two tables: a point baseline's rows carry no quantile columns (appending 19 NULLs per row tripled
    // the cost of its pass); the part query joins them BY NAME, which fills those columns with NULL.
    await duck.run(
      `CREATE OR REPLACE TEMP TABLE forecast_chunk (${CHUNK_COLUMNS}, ${BASELINE_QUANTILE_LEVELS.map(
        (l) => `${quoteIdent(quantileColumnName(l))} DOUBLE`,
      ).join(', ')})`,
    );
    await duck.run(`CREATE OR REPLACE TEMP TABLE forecast_chunk_points (${CHUNK_COLUMNS})`);
    return new ForecastParts(duck, dir, partQuery, rowGroupsPerPart * PARQUET_ROW_GROUP_ROWS);
  }

  /** Appends one model's rows (model_no, its place in name order) and writes every part they complete. */
  async append(modelNo: number, modelRank: number, rows: ForecastColumns): Promise<void> {
    const n = rows.originNo.length;
    if (n === 0) return;
    for (let i = 0; i < n; i++) {
      const step = rows.step[i];
      const key = modelRank * RANK_BITS + rows.originNo[i] * STEP_BITS + step;
      if (!(step >= 1 && step < STEP_BITS && key > this.lastKey)) {
        throw new Error(
          `ForecastParts: row ${this.rows + i} (model rank ${modelRank}, origin_no ${rows.originNo[i]}, step ${step}) is out of the file's order (a bug: models must come in name order, then origins, then steps)`,
        );
      }
      this.lastKey = key;
    }
    const seq = Array.from({ length: n }, (_, i) => this.rows + i);
    const quantiles = rows.quantiles ?? [];
    await this.duck.appendColumns(
      rows.quantiles ? 'forecast_chunk' : 'forecast_chunk_points',
      [DOUBLE, INTEGER, INTEGER, INTEGER, INTEGER, DOUBLE, ...quantiles.map(() => DOUBLE)],
      [
        seq,
        new Array<number>(n).fill(modelNo),
        new Array<number>(n).fill(modelRank),
        rows.originNo,
        rows.step,
        rows.value,
        ...quantiles,
      ],
    );
    this.rows += n;
    while (this.rows - this.written >= this.partRows) await this.writePart(this.written + this.partRows);
  }

  /** Writes what is left as the last part (an empty one if there were no rows) and returns every part in order. */
  async finish(): Promise<string[]> {
    if (this.rows > this.written || this.files.length === 0) await this.writePart(this.rows);
    return [...this.files];
  }

  private async writePart(hi: number): Promise<void> {
    const file = join(this.dir, `part-${String(this.files.length).padStart(6, '0')}.parquet`);
    await this.duck.writeParquet(this.partQuery, file, { lo: this.written, hi });
    this.files.push(file);
    this.written = hi;
    // Keep only the rows not yet written (fewer than a part plus one block's worth).
    for (const table of ['forecast_chunk', 'forecast_chunk_points']) {
      await this.duck.run(
        `CREATE OR REPLACE TEMP TABLE ${table} AS SELECT * FROM ${table} WHERE seq >= $hi`,
        {
          hi,
        },
      );
    }
  }
}
