import type { Manifest } from '@asof/schema';
import type { SplitAggregates } from './aggregate-split.ts';
import { isoDay } from './chart-base.ts';
import { chartBlock } from './chart-block.ts';
import type { Block, Cell, Section } from './render-report-html.ts';
import { type Instant, originsSpec, pendingSpec, trainMonthsSpec } from './split-charts.ts';

/** The split's key instants (train cutoff, eval start, model cutoff, run date) that its config names. */
export function splitInstants(config: Record<string, unknown>): Instant[] {
  const out: Instant[] = [];
  const add = (label: string, v: unknown) => {
    if (typeof v !== 'string') return;
    const at = Date.parse(
      /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v.replace(/(\.\d{3})\d+Z$/, '$1Z'),
    );
    if (!Number.isFinite(at)) return;
    const same = out.find((i) => i.at === at);
    if (same) same.label = `${same.label} = ${label}`;
    else out.push({ label, at });
  };
  add('train cutoff', config.train_cutoff);
  add('eval start', config.eval_start);
  add('model cutoff', config.model_cutoff);
  add('run date', config.run_date);
  return out;
}

/** Split sections: the train snapshot cut, origins over time, windows, pending targets, horizons. */
export async function splitSections(manifest: Manifest, a: SplitAggregates): Promise<Section[]> {
  const c = manifest.config;
  const instants = splitInstants(c);
  const train: Block[] = [
    {
      kind: 'table',
      columns: ['setting', 'value'],
      rows: [
        ['train cutoff', String(c.train_cutoff ?? '–')],
        ['eval start', String(c.eval_start ?? '–')],
        ['embargo', String(c.embargo ?? '–')],
        ['origins policy', String(c.origins_policy ?? '–')],
        ['layout', String(c.layout ?? '–')],
        ['target vintage', String(c.target_vintage ?? '–')],
        ['model cutoff', String(c.model_cutoff ?? '–')],
        ['run date', String(c.run_date ?? '–')],
        ['DM valid (non-overlapping origins)', String(c.dm_valid ?? '–')],
      ],
    },
  ];
  if (a.trainMonths.length) {
    train.push(
      await chartBlock(
        'train-snapshot',
        'Training snapshot: rows per month of their timestamp, by category',
        trainMonthsSpec(a.trainMonths, instants),
        'Every training row was public strictly before the train cutoff (the as-of view at the cutoff).',
      ),
    );
  }
  train.push({
    kind: 'table',
    caption: 'Training snapshot per category and frequency',
    columns: ['category', 'frequency', 'series', 'periods', 'last timestamp', 'last published'],
    rows: a.trainSummary.map((r) => [
      r.category,
      r.frequency,
      r.series,
      r.observations,
      isoDay(r.last_timestamp),
      isoDay(r.last_available_at),
    ]),
  });

  const labelled = a.windows.some((w) => w.window !== 'none');
  const origins: Block[] = [];
  if (a.originMonths.length) {
    origins.push(
      await chartBlock(
        'origins',
        'Evaluation origins per month, by frequency',
        originsSpec(a.originMonths, instants, 'frequency'),
      ),
    );
    if (labelled) {
      origins.push(
        await chartBlock(
          'windows',
          'Origins per month by window (T1 memorisable, T2 unseen and scorable, T3 pending)',
          originsSpec(a.originMonths, instants, 'window'),
        ),
      );
    }
  } else {
    origins.push({ kind: 'text', text: 'The split has no evaluation origin.' });
  }
  origins.push({
    kind: 'table',
    caption: labelled
      ? 'Origins per window and frequency, against the model cutoff and run date'
      : 'Origins per frequency (no --model-cutoff: windows are not labelled)',
    columns: [
      'window',
      'frequency',
      'origins',
      'series',
      'first origin',
      'last origin',
      'targets known from',
      'targets known until',
      'pending origins',
    ],
    rows: a.windows.map((w): Cell[] => [
      w.window,
      w.frequency,
      w.origins,
      w.series,
      isoDay(w.first_origin),
      isoDay(w.last_origin),
      isoDay(w.first_known),
      isoDay(w.last_known),
      w.pending_origins,
    ]),
  });

  const summary = manifest.summary as {
    origins_straddling_cutoff_dropped?: number;
    origins_not_member_dropped?: number;
  };
  if (labelled || c.model_cutoff) {
    origins.push({
      kind: 'text',
      text: `${(summary.origins_straddling_cutoff_dropped ?? 0).toLocaleString('en-US')} origin(s) straddling the model cutoff were dropped: at or before the cutoff, with targets published after it, they are in no window (the model saw part of the path).`,
    });
  }
  if (summary.origins_not_member_dropped) {
    origins.push({
      kind: 'text',
      text: `${summary.origins_not_member_dropped.toLocaleString('en-US')} origin(s) of series not in the universe at the origin were dropped.`,
    });
  }

  const pendingOrigins = a.windows.reduce((s, w) => s + w.pending_origins, 0);
  const pending: Block[] = [
    {
      kind: 'text',
      text: `${pendingOrigins.toLocaleString('en-US')} origin(s) have a target step not public ${c.run_date ? `by the run date ${String(c.run_date)}` : 'in the universe'} (${a.windows.reduce((s, w) => s + w.pending_steps, 0).toLocaleString('en-US')} of ${a.windows.reduce((s, w) => s + w.target_steps, 0).toLocaleString('en-US')} target steps): they are kept and scored on the steps that are known.`,
    },
  ];
  if (pendingOrigins > 0) {
    pending.push(
      await chartBlock(
        'pending',
        'Origins with complete vs pending targets',
        pendingSpec(a.originMonths, instants),
      ),
    );
  }
  const horizons = (c.horizons ?? {}) as Record<string, { lookback?: number; prediction_length?: number }>;
  const horizonRows = Object.entries(horizons).map(([f, h]): Cell[] => [
    f,
    h.lookback ?? null,
    h.prediction_length ?? null,
  ]);
  return [
    { id: 'train', title: 'Train snapshot', blocks: train },
    { id: 'origins', title: 'Evaluation origins and windows', blocks: origins },
    {
      id: 'pending',
      title: 'Pending targets',
      blocks: [
        ...pending,
        ...(horizonRows.length
          ? [
              {
                kind: 'table',
                caption: 'Lookback and prediction length (steps)',
                columns: ['frequency', 'lookback', 'H'],
                rows: horizonRows,
              } as Block,
            ]
          : []),
      ],
    },
  ];
}
