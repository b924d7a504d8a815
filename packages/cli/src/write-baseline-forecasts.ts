import { dirname, join } from 'node:path';
import { microsToIso } from '@asof/calendar';
import { DOUBLE, Duck, INTEGER, quoteLiteral, VARCHAR } from '@asof/duck';
import { openVerifiedManifest, type VerifiedManifest } from '@asof/manifest';
import { ASOF_PARQUET_KEY, faultPoint, writeOutputFile } from '@asof/output';
import { InputError, type Manifest } from '@asof/schema';
import { BASELINE_MODELS, SEASON_LENGTH } from '@asof/scoring';
import {
  driftForecaster,
  type Forecaster,
  type ForecastTask,
  HistoryStore,
  randomWalkForecaster,
  runForecaster,
  seasonalNaiveForecaster,
} from '@asof/split';

export interface BaselineForecastsResult {
  manifest: Manifest;
  path: string;
  rows: number;
  origins: number;
  series: number;
  /** historyAt requests and rows checked by the look-ahead guard. */
  guard: { requests: number; rows: number };
}

function outputsOf(manifest: Manifest, tables: readonly string[]): string[] {
  return manifest.outputs.filter((o) => tables.includes(o.table)).map((o) => o.path);
}

/**
 * `asof baselines`: the random walk, drift and seasonal-naive forecasts of every origin of a split, written
 * as a forecasts file (schemas/forecast.schema.json) that `asof score` accepts. The split manifest is
 * verified first. Every value comes from a forecaster that sees the history only through
 * OriginView.historyAt, the split's look-ahead guard; a LookaheadError aborts the run (nothing is written).
 * The history served is what the split serves: the training snapshot and every origin's inputs (each
 * read as of the origin), so the forecasts equal the scorer's own baselines (FORECAST_BASELINE_MISMATCH
 * otherwise).
 */
export async function writeBaselineForecasts(
  manifestPath: string,
  outPath: string,
  /** Replaces a baseline's forecaster (tests: a forecaster that reads past its origin must abort the run). */
  override: Partial<Record<(typeof BASELINE_MODELS)[number], Forecaster>> = {},
): Promise<BaselineForecastsResult> {
  const verified = await openVerifiedManifest(manifestPath);
  try {
    const written = await writeOutputFile(
      outPath,
      {
        command: 'asof baselines',
        inputs: [manifestPath, dirname(manifestPath)],
        protectedFiles: verified.files().map((f) => f.path),
        beforeSwitch: () => verified.recheck(),
      },
      ({ file, work }) =>
        verified.guard(() => computeBaselines(verified, manifestPath, file, work, override)),
    );
    return { ...written.value, path: written.path };
  } finally {
    verified.close();
  }
}

async function computeBaselines(
  verified: VerifiedManifest,
  manifestPath: string,
  outFile: string,
  work: string,
  override: Partial<Record<(typeof BASELINE_MODELS)[number], Forecaster>>,
): Promise<BaselineForecastsResult> {
  const manifest = verified.manifest;
  if (manifest.kind !== 'split') {
    throw new InputError(
      'BASELINES_NOT_A_SPLIT',
      `${manifestPath}: manifest kind is '${manifest.kind}', expected 'split'; make one with 'asof split' and pass its manifest`,
      { context: { file: manifestPath, value: manifest.kind } },
    );
  }
  // Only files the verified manifest lists, read through the descriptors that were hashed.
  const files = (tables: readonly string[]) =>
    `[${verified
      .readPaths(...tables)
      .map((p) => quoteLiteral(p))
      .join(', ')}]`;
  const originFiles = outputsOf(manifest, ['origins']);
  const historyFiles = outputsOf(manifest, ['train_observations', 'inputs', 'input_rows']);
  if (originFiles.length === 0 || historyFiles.length === 0) {
    throw new InputError(
      'BASELINES_SPLIT_INCOMPLETE',
      `${manifestPath} lists ${originFiles.length} origins file(s) and ${historyFiles.length} history file(s) (train_observations, inputs); a split made by 'asof split' has both`,
      { context: { file: manifestPath } },
    );
  }
  const duck = await Duck.open({ threads: 2, tempDirectory: join(work, 'spill') });
  try {
    const origins = await duck.all<{
      series_id: string;
      origin: bigint;
      origin_index: number;
      horizon_steps: number;
      lookback_steps: number | null;
      frequency: string;
    }>(
      `SELECT series_id, epoch_us(origin) AS origin, origin_index::BIGINT AS origin_index,
              horizon_steps::INTEGER AS horizon_steps, lookback_steps::INTEGER AS lookback_steps, frequency
       FROM read_parquet(${files(['origins'])}) ORDER BY series_id, origin`,
    );
    const inputTable = outputsOf(manifest, ['input_rows']).length ? 'input_rows' : 'inputs';
    const inputColumns = await duck.all<{ column_name: string }>(
      `DESCRIBE SELECT * FROM read_parquet(${files([inputTable])})`,
    );
    if (!inputColumns.some((c) => c.column_name === 'step_index')) {
      throw new InputError(
        'BASELINES_SPLIT_OUTDATED',
        `${manifestPath}: its inputs carry no step_index (written by an older 'asof split'), so a series released late cannot be placed on its grid; remake the split with 'asof split'`,
        { context: { file: manifestPath } },
      );
    }
    // Only files the verified manifest lists are read; every vintage once (per-origin inputs repeat them).
    // The withdrawals (value NULL) make the as-of view at each origin leave out what the inputs leave out.
    const withdrawals = outputsOf(manifest, ['withdrawals']).length
      ? `UNION ALL
         SELECT series_id, "timestamp", available_at, NULL::DOUBLE AS value FROM read_parquet(${files(['withdrawals'])})`
      : '';
    // Compact input rows count only where some origin is served them (input_rows.sql's read rule), as the
    // per-origin layout carries them: the file also holds vintages no origin's window reaches.
    const inputs = outputsOf(manifest, ['input_rows']).length
      ? `SELECT r.series_id, r."timestamp", r.available_at, r.value FROM read_parquet(${files(['input_rows'])}) AS r
         WHERE EXISTS (
           SELECT 1 FROM read_parquet(${files(['origins'])}) AS o
           WHERE o.series_id = r.series_id AND r."timestamp" BETWEEN o.lookback_start AND o.origin
             AND r.available_at <= o.origin AND (r.superseded_at IS NULL OR r.superseded_at > o.origin))`
      : `SELECT series_id, "timestamp", available_at, value FROM read_parquet(${files(['inputs'])})`;
    const rows = await duck.all<{ series_id: string; ts: bigint; av: bigint; value: number | null }>(
      `WITH served AS (
         SELECT series_id, "timestamp", available_at, value FROM read_parquet(${files(['train_observations'])})
         UNION ALL
         ${inputs}
         ${withdrawals}
       )
       SELECT DISTINCT series_id, epoch_us("timestamp") AS ts, epoch_us(available_at) AS av, value
       FROM served WHERE series_id IN (SELECT DISTINCT series_id FROM read_parquet(${files(['origins'])}))
       ORDER BY series_id, ts, av`,
    );
    // The grid steps of the served timestamps and of the origins (the split's step_index / origin_index): the
    // store holds only what the split serves, so it cannot number the grid itself (a step released after
    // the last origin is in no input), and seasonal naive and drift count from the origin's own step.
    const grid = await duck.all<{ series_id: string; ts: bigint; step: bigint }>(
      `SELECT series_id, epoch_us("timestamp") AS ts, step_index::BIGINT AS step FROM read_parquet(${files([inputTable])})
       UNION
       SELECT series_id, epoch_us(origin) AS ts, origin_index::BIGINT AS step FROM read_parquet(${files(['origins'])})
       ORDER BY series_id, ts`,
    );
    // A null value is a withdrawal (docs/decisions/0007-withdrawal-rows.md): historyAt leaves it out.
    const store = HistoryStore.fromRows(rows, grid);
    const frequency = new Map(origins.map((o) => [o.series_id, o.frequency]));
    const tasks: ForecastTask[] = origins
      .filter((o) => store.has(o.series_id))
      .map((o) => ({
        series_id: o.series_id,
        origin: Number(o.origin),
        horizon_steps: o.horizon_steps,
        origin_index: Number(o.origin_index),
        ...(o.lookback_steps === null ? {} : { lookback_steps: o.lookback_steps }),
      }));
    const forecasters: Record<(typeof BASELINE_MODELS)[number], Forecaster> = {
      random_walk: randomWalkForecaster,
      drift: driftForecaster,
      seasonal_naive: seasonalNaiveForecaster((id) => SEASON_LENGTH[frequency.get(id) ?? ''] ?? 1),
      ...override,
    };
    const model: string[] = [];
    const series: string[] = [];
    const origin: string[] = [];
    const step: number[] = [];
    const value: number[] = [];
    for (const name of BASELINE_MODELS) {
      const out = runForecaster(store, tasks, forecasters[name]);
      const perOrigin = new Map<string, number>();
      for (const r of out) {
        const key = `${r.series_id}|${r.origin}`;
        perOrigin.set(key, (perOrigin.get(key) ?? 0) + 1);
        model.push(name);
        series.push(r.series_id);
        origin.push(microsToIso(r.origin));
        step.push(r.step);
        value.push(r.value);
      }
      const empty = origins.find(
        (o) => (perOrigin.get(`${o.series_id}|${Number(o.origin)}`) ?? 0) !== o.horizon_steps,
      );
      if (empty) {
        throw new InputError(
          'BASELINES_NO_HISTORY',
          `${manifestPath}: origin ${microsToIso(Number(empty.origin))} of ${empty.series_id} has no history public at the origin in the split (train/observations, inputs), so ${name} has no forecast; the split's origins and inputs disagree — remake the split`,
          { context: { series_id: empty.series_id, value: microsToIso(Number(empty.origin)) } },
        );
      }
    }
    await duck.run(
      'CREATE TABLE forecasts (model VARCHAR, series_id VARCHAR, origin VARCHAR, step INTEGER, value DOUBLE)',
    );
    await duck.appendColumns(
      'forecasts',
      [VARCHAR, VARCHAR, VARCHAR, INTEGER, DOUBLE],
      [model, series, origin, step, value],
    );
    // origin is ISO text with microseconds (fixed width, so the text order is the time order).
    await faultPoint('run:midway');
    // The asof entry marks the file as asof's, so a later run may replace it (and only it). It names no
    // split: the same forecasts from either split layout are the same bytes.
    await duck.writeParquet(
      'SELECT * FROM forecasts ORDER BY model, series_id, origin, step',
      outFile,
      undefined,
      {
        kvMetadata: {
          [ASOF_PARQUET_KEY]: JSON.stringify({
            kind: 'forecasts',
            models: [...BASELINE_MODELS],
          }),
        },
      },
    );
    return {
      manifest,
      path: outFile,
      rows: model.length,
      origins: tasks.length,
      series: new Set(tasks.map((t) => t.series_id)).size,
      guard: { ...store.guard },
    };
  } finally {
    duck.close();
  }
}
