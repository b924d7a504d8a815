import { quantileColumnName } from '@asof/baselines';
import { DOUBLE, type Duck, INTEGER, quoteIdent, type TableAppender, VARCHAR } from '@asof/duck';
import { ASOF_PARQUET_KEY } from '@asof/output';
import type { AnsweredPath, ForecastShape } from './check-reply.ts';

/**
 * The forecasts of a run as they arrive, appended to a DuckDB table in the run's work folder (so only the
 * current batch is held in JavaScript), then written once as a forecasts file (schemas/forecast.schema.json:
 * model, series_id, origin, step, value [+ q<level> | s1…sM]) sorted on its grain.
 */
export class ForecastSink {
  rows = 0;

  private constructor(
    private readonly duck: Duck,
    private readonly appender: TableAppender,
    private readonly model: string,
    private readonly shape: ForecastShape,
  ) {}

  static async open(duck: Duck, model: string, shape: ForecastShape): Promise<ForecastSink> {
    const extra = [
      ...shape.levels.map(quantileColumnName),
      ...Array.from({ length: shape.samples }, (_, m) => `s${m + 1}`),
    ];
    await duck.run(
      `CREATE TABLE forecasts (model VARCHAR, series_id VARCHAR, origin VARCHAR, step INTEGER, value DOUBLE${extra
        .map((c) => `, ${quoteIdent(c)} DOUBLE`)
        .join('')})`,
    );
    const types = [VARCHAR, VARCHAR, VARCHAR, INTEGER, DOUBLE, ...extra.map(() => DOUBLE)];
    return new ForecastSink(duck, await duck.openAppender('forecasts', types), model, shape);
  }

  add(originIso: string, path: AnsweredPath): void {
    const K = this.shape.levels.length;
    const M = this.shape.samples;
    for (let k = 0; k < path.point.length; k++) {
      const row: (string | number)[] = [this.model, path.series_id, originIso, k + 1, path.point[k]];
      for (let j = 0; j < K; j++) row.push(path.quantiles![k * K + j]);
      for (let m = 0; m < M; m++) row.push(path.samples![k * M + m]);
      this.appender.push(row);
      this.rows++;
    }
  }

  /** Writes the file with the asof entry (kind forecasts, the model, the run record) in its footer. */
  async write(file: string, metadata: Record<string, unknown>): Promise<void> {
    this.appender.close();
    // origin is kept as the split's fixed-width ISO text while the batches arrive (its order is the time
    // order) and written as the split's origins.parquet stores it: TIMESTAMPTZ (docs/decisions/0060).
    await this.duck.writeParquet(
      'SELECT * REPLACE (origin::TIMESTAMPTZ AS origin) FROM forecasts ORDER BY model, series_id, origin, step',
      file,
      undefined,
      {
        kvMetadata: {
          [ASOF_PARQUET_KEY]: JSON.stringify({ kind: 'forecasts', models: [this.model], ...metadata }),
        },
      },
    );
  }
}
