import { microsToIso } from '@asof/calendar';
import type { Duck } from '@asof/duck';
import { InputError } from '@asof/schema';
import type { LabelCache } from './label-cache.ts';
import type { RunSplit } from './open-run-split.ts';

/** One `fit` line (a whole series of the training snapshot) and what it holds. */
export interface FitMessage {
  line: string;
  series_id: string;
  rows: number;
}

interface SeriesInfo {
  unit: string | null;
  eval_target: boolean;
  fiscal: boolean;
}

/**
 * The training snapshot as `fit` lines, one per series, streamed from train/observations in
 * (series_id, timestamp) order: DuckDB hands over 2048 rows at a time and only the current series is held.
 * Every row is checked against the train cutoff again as it is sent (the embargo, asserted row by row).
 */
export async function* trainingMessages(
  duck: Duck,
  split: RunSplit,
  labels: LabelCache,
  manifestPath: string,
): AsyncGenerator<FitMessage> {
  // Each series once (numbered in series_id order), and the 4M-row stream carries only its number: decoding
  // a series_id string per row was most of the runner's time on the default split.
  await duck.run(
    `CREATE TEMP TABLE runner_train_series AS
     SELECT row_number() OVER (ORDER BY k.series_id)::INTEGER AS series_no, k.series_id, k.frequency,
            s.unit, coalesce(s.eval_target, false) AS eval_target,
            (k.frequency = 'A' AND coalesce(s.fiscal_year_end, '1231') <> '1231') AS fiscal
     FROM (SELECT series_id, any_value(frequency) AS frequency FROM split_train GROUP BY series_id) AS k
     LEFT JOIN split_train_series AS s USING (series_id)`,
  );
  const info: (SeriesInfo & { series_id: string; frequency: string })[] = [];
  for (const s of await duck.all<SeriesInfo & { series_no: number; series_id: string; frequency: string }>(
    'SELECT * FROM runner_train_series ORDER BY series_no',
  )) {
    info[s.series_no] = s;
  }
  const result = await duck.stream(
    `SELECT k.series_no, epoch_us(o."timestamp")::DOUBLE AS ts, epoch_us(o.available_at)::DOUBLE AS av, o.value
     FROM split_train AS o JOIN runner_train_series AS k USING (series_id)
     ORDER BY k.series_no, o."timestamp"`,
  );
  let current = -1;
  let frequency = '';
  let fiscal = false;
  let lab: string[] = [];
  let ts: string[] = [];
  let av: string[] = [];
  let values: number[] = [];
  const flush = (): FitMessage => {
    const s = info[current];
    const line = JSON.stringify({
      type: 'fit',
      series_id: s.series_id,
      frequency,
      unit: s.unit ?? null,
      eval_target: s.eval_target,
      history: { labels: lab, timestamps: ts, available_at: av, values },
    });
    const message = { line, series_id: s.series_id, rows: values.length };
    lab = [];
    ts = [];
    av = [];
    values = [];
    return message;
  };
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const nos = chunk.getColumnValues(0) as number[];
    const tss = chunk.getColumnValues(1) as number[];
    const avs = chunk.getColumnValues(2) as number[];
    const vals = chunk.getColumnValues(3) as (number | null)[];
    const n = chunk.rowCount;
    for (let i = 0; i < n; i++) {
      if (nos[i] !== current) {
        if (current !== -1) yield flush();
        current = nos[i];
        frequency = info[current].frequency;
        fiscal = info[current].fiscal;
      }
      const value = vals[i];
      if (!(avs[i] < split.trainCutoffUs) || value === null) {
        throw new InputError(
          'RUN_EMBARGO_BREACHED',
          `${manifestPath}: train/observations row ${info[current].series_id} @ ${microsToIso(tss[i])} (published ${Number.isFinite(avs[i]) ? microsToIso(avs[i]) : 'never'}, value ${value}) is not a value public before the train cutoff ${split.train_cutoff}; remake the split with 'asof split'`,
          { context: { file: manifestPath, series_id: info[current].series_id } },
        );
      }
      lab.push(labels.labelOf(tss[i], frequency, fiscal));
      ts.push(labels.isoOf(tss[i]));
      av.push(labels.isoOf(avs[i]));
      values.push(value);
    }
  }
  if (current !== -1) yield flush();
}
