import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  type ChangeKind,
  diffUniverses,
  type RowChange,
  type SeriesDiff,
  type UniverseDiff,
} from '@asof/diff';
import { openVerifiedManifest } from '@asof/manifest';
import { InputError } from '@asof/schema';
import { type Io, shown } from './commands.ts';
import { formatTable } from './format-table.ts';
import { nextHint } from './next-hint.ts';
import { parseCommandArgs } from './parse-command-args.ts';

export const DIFF_USAGE =
  'asof diff <A/manifest.json> <B/manifest.json> [--series GLOB…] [--limit N] [--json]';

const KIND_WORDS: Record<ChangeKind, string> = {
  new_observation: 'new',
  revision: 'revised',
  withdrawal: 'withdrawn',
  restatement: 'restated without a vintage',
  rewritten: 'history rewritten',
};

/** A manifest path, or a folder holding one. */
function manifestPath(io: Io, given: string): string {
  const path = resolve(io.cwd, given);
  if (existsSync(path) && statSync(path).isDirectory()) return join(path, 'manifest.json');
  return path;
}

const num = (v: number | null) => (v === null ? 'withdrawn' : String(v));

function renderChange(kind: ChangeKind, c: RowChange): string {
  const was =
    c.old_value === null && c.old_available_at === null
      ? ''
      : `${num(c.old_value)} (available ${c.old_available_at}) → `;
  const now = c.new_available_at === null ? 'gone' : `${num(c.new_value)} (available ${c.new_available_at})`;
  return `      ${KIND_WORDS[kind]} ${c.period}: ${was}${now}`;
}

function renderSeries(s: SeriesDiff): string[] {
  if (s.status === 'new')
    return [
      `+ ${s.series_id} (${s.source}, ${s.frequency}): new series, ${s.b_rows.toLocaleString('en-US')} rows`,
    ];
  if (s.status === 'removed')
    return [
      `- ${s.series_id} (${s.source}, ${s.frequency}): removed, had ${s.a_rows.toLocaleString('en-US')} rows`,
    ];
  const c = s.counts;
  const parts = [
    c.new_observations && `${c.new_observations} new observation(s)`,
    c.revisions && `${c.revisions} revision(s)`,
    c.withdrawals && `${c.withdrawals} withdrawal(s)`,
    c.restatements && `${c.restatements} restatement(s) without a vintage`,
    c.rewritten && `${c.rewritten} rewritten row(s)`,
  ].filter(Boolean);
  const lines = [
    `~ ${s.series_id} (${s.source}, ${s.frequency}): ${parts.join(', ')}; ${c.new_vintages} new vintage(s)`,
  ];
  for (const kind of ['revision', 'withdrawal', 'restatement', 'rewritten'] as const) {
    for (const ch of s.changes[kind] ?? []) lines.push(renderChange(kind, ch));
    const n =
      s.counts[
        (
          {
            revision: 'revisions',
            withdrawal: 'withdrawals',
            restatement: 'restatements',
            rewritten: 'rewritten',
          } as const
        )[kind]
      ];
    const shownN = s.changes[kind]?.length ?? 0;
    if (n > shownN) lines.push(`      … ${n - shownN} more ${KIND_WORDS[kind]} (--limit 0 lists all)`);
  }
  return lines;
}

function render(d: UniverseDiff): string {
  const rows = [...d.sources, d.totals].map((s) => [
    s.source,
    s.new_series,
    s.removed_series,
    s.changed_series,
    s.new_observations,
    s.new_vintages,
    s.revisions,
    s.withdrawals,
    s.restatements,
    s.rewritten,
  ]);
  const table = formatTable(
    [
      'source',
      'new series',
      'removed',
      'changed',
      'new obs',
      'new vintages',
      'revisions',
      'withdrawals',
      'restated',
      'rewritten',
    ],
    rows,
  );
  const head = `diff ${d.a.manifest} (${d.a.dataset_id.slice(0, 12)}) → ${d.b.manifest} (${d.b.dataset_id.slice(0, 12)})${d.series_filter.length ? `, series ${d.series_filter.join(' ')}` : ''}\n`;
  if (d.series.length === 0) return `${head}no differences\n`;
  return `${head}${table}\n\n${d.series.flatMap(renderSeries).join('\n')}\n`;
}

export async function diffCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    args,
    { series: { type: 'string', multiple: true }, limit: { type: 'string' }, json: { type: 'boolean' } },
    DIFF_USAGE,
  );
  if (values.help) {
    io.out(
      `${DIFF_USAGE}\n\nWhat changed from universe A to universe B, per source and per series: new and removed series, new\nobservations and vintages, values revised by a new vintage (old → new, both available_at), withdrawals,\nrestatements without a vintage (a vendor file without revision dates that changed between two downloads)\nand rewritten history (rows A had that B changed or lost). --series takes globs (fred:*, px:AAPL:*);\n--limit N examples per series and kind (default 5, 0 = all).\n`,
    );
    return 0;
  }
  if (positionals.length !== 2)
    throw new InputError('USAGE', `expected two manifests (A, then B)\n  usage: ${DIFF_USAGE}`);
  const limitText = (values.limit as string | undefined) ?? '5';
  if (!/^\d+$/.test(limitText))
    throw new InputError(
      'USAGE',
      `--limit ${limitText}: expected a whole number (0 = every change)\n  usage: ${DIFF_USAGE}`,
      {
        context: { value: limitText },
      },
    );
  const [aPath, bPath] = positionals.map((p) => manifestPath(io, p));
  const a = await openVerifiedManifest(aPath, { label: positionals[0] });
  try {
    const b = await openVerifiedManifest(bPath, { label: positionals[1] });
    try {
      const diff = await b.guard(() =>
        a.guard(() =>
          diffUniverses(a, b, {
            series: (values.series as string[] | undefined) ?? [],
            limit: Number(limitText),
          }),
        ),
      );
      await a.recheck();
      await b.recheck();
      io.out(values.json ? `${JSON.stringify(diff)}\n` : render(diff));
      const first = diff.series.find((s) => s.status !== 'removed');
      nextHint(
        io,
        first
          ? `asof show ${first.series_id} --data ${shown(io, dirname(bPath))}`
          : `asof report --manifest ${shown(io, bPath)} --out ${shown(io, dirname(bPath))}-report.html`,
      );
      return 0;
    } finally {
      b.close();
    }
  } finally {
    a.close();
  }
}
