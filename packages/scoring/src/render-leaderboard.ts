import { escapeMarkdown as md } from './escape-markdown.ts';
import type { Coverage, MetricValue, RankBlock, ScoringResults } from './results-schema.ts';

function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  return Math.abs(x) >= 1e4 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(2) : x.toFixed(digits);
}

/** An identifier in a code span, or escaped text when it could close the span. */
function code(text: string): string {
  return /^[\w.:@/-]+$/.test(text) ? `\`${text}\`` : md(text);
}

/** A GFM table. Cells are Markdown already: text from users goes in through md(). */
function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function rankTable(block: RankBlock, baselines: Set<string>): string {
  return table(
    ['#', 'model', ...block.aspects.map((a) => `${md(a)} rank (K)`), 'overall'],
    block.models.map((m) => [
      String(m.position),
      baselines.has(m.model) ? `${md(m.model)} (baseline)` : md(m.model),
      ...block.aspects.map((a) =>
        a in m.aspect_rank ? `${fmt(m.aspect_rank[a], 1)} (${fmt(m.aspect_k[a], 2)})` : '–',
      ),
      fmt(m.overall, 1),
    ]),
  );
}

/** A share of the task set as a percentage with enough digits to tell a few series from none. */
function percent(share: number): string {
  if (share === 1) return '100%';
  const p = share * 100;
  return `${p >= 1 ? p.toFixed(1) : p.toPrecision(2)}%`;
}

function coverageText(c: Coverage): string {
  return `${c.series} series, ${c.origins} origins, ${c.points} points (${percent(c.share)} of the task set)`;
}

/** The rank blocks a model is ranked in ('overall', 'scope: Macro', …). */
function rankedIn(results: ScoringResults, model: string): string[] {
  const out: string[] = [];
  const has = (b: RankBlock) => b.models.some((m) => m.model === model);
  if (has(results.ranks.overall)) out.push('overall');
  for (const [field, blocks] of [
    ['scope', results.ranks.by_scope],
    ['category', results.ranks.by_category],
    ['frequency', results.ranks.by_frequency],
  ] as const) {
    for (const [k, b] of Object.entries(blocks)) if (has(b)) out.push(`${field}: ${k}`);
  }
  return out;
}

/** Headline cells: every FinVerse metric, and Tycheon MAE/RMSE/MASE/CRPS (as baselines_win counts them). */
function isHeadline(v: MetricValue): boolean {
  return (
    v.family === 'finverse' ||
    ['tycheon.mae', 'tycheon.rmse', 'tycheon.mase', 'tycheon.crps', 'tycheon.crps*'].includes(v.metric)
  );
}

/**
 * One line per partial model for a terminal: its coverage, its position among the baselines on its own
 * points and its verdict on its own origins (the CLI prints these under the overall table).
 */
export function coverageSummary(results: ScoringResults): string[] {
  const partial = results.same_points;
  if (partial.length === 0) return [];
  const lines = partial.map((p) => {
    const c = results.models.find((m) => m.model === p.model)!.coverage;
    const pos = p.ranks.models.find((m) => m.model === p.model)?.position;
    const verdict =
      results.verdicts.status === 'ok'
        ? (results.verdicts.rows.find((r) => r.model === p.model && r.unit === '*')?.verdict ?? 'n/a')
        : 'refused';
    return (
      `${p.model}: partial, ${coverageText(c)}; with the baselines on its points: ` +
      `${pos === undefined ? 'no FinVerse cell' : `position ${pos} of ${p.ranks.models.length}`}; ` +
      `vs random walk on its origins: ${verdict}`
    );
  });
  return [
    ...lines,
    'rank blocks compare only models covering every point of their units; partial models are compared with the baselines on their own points (leaderboard: "Partial models")',
  ];
}

function coverageSection(results: ScoringResults, baselines: Set<string>): string {
  const t = results.comparison.task_set;
  const rows = results.models.map((m) => {
    const blocks = rankedIn(results, m.model);
    const all =
      1 +
      Object.keys(results.ranks.by_scope).length +
      Object.keys(results.ranks.by_category).length +
      Object.keys(results.ranks.by_frequency).length;
    return [
      baselines.has(m.model) ? `${md(m.model)} (baseline)` : md(m.model),
      String(m.coverage.series),
      String(m.coverage.origins),
      String(m.coverage.points),
      percent(m.coverage.share),
      blocks.length === all
        ? 'all blocks'
        : blocks.length
          ? blocks.map(md).join(', ')
          : 'none: with the baselines on its own points (below)',
    ];
  });
  return [
    '## Coverage and comparison sets\n',
    `Task set: ${t.series} series, ${t.origins} origins, ${t.points} points.\n`,
    table(['model', 'series', 'origins', 'points', 'share', 'ranked in'], rows),
    '',
    `- Points: ${md(results.comparison.points)}.`,
    `- Ranks: ${md(results.comparison.ranks)}.`,
    `- Verdicts: ${md(results.comparison.verdicts)}.\n`,
  ].join('\n');
}

/** Each partial model and the baselines on exactly its points: ranks and headline values. */
function partialSection(results: ScoringResults, baselines: Set<string>): string {
  const out: string[] = ['## Partial models, with the baselines on the same points\n'];
  const names = results.models.filter((m) => m.baseline).map((m) => m.model);
  for (const p of results.same_points) {
    const c = results.models.find((m) => m.model === p.model)!.coverage;
    out.push(`### ${md(p.model)}\n`);
    out.push(`${coverageText(c)}; every value below is on these points only.\n`);
    if (p.ranks.models.length) out.push(`${rankTable(p.ranks, baselines)}\n`);
    const own = results.values.filter((v) => v.model === p.model && isHeadline(v));
    const key = (v: MetricValue) => `${v.unit}\u0000${v.metric}`;
    const base = new Map<string, Map<string, MetricValue>>();
    for (const v of p.values) {
      if (!base.has(key(v))) base.set(key(v), new Map());
      base.get(key(v))!.set(v.model, v);
    }
    out.push(
      `${table(
        ['unit', 'metric', md(p.model), ...names.map(md)],
        own.map((v) => [
          md(v.unit),
          md(v.metric),
          fmt(v.value),
          ...names.map((b) => fmt(base.get(key(v))?.get(b)?.value)),
        ]),
      )}\n`,
    );
  }
  return out.join('\n');
}

/** Models run by `asof run`: what each was served through the look-ahead guard, and how it was started. */
function runsSection(runs: NonNullable<ScoringResults['runs']>): string {
  const rows = runs.map((r) => [
    md(r.model),
    `${r.pairs.forecast} of ${r.pairs.asked} pairs${r.pairs.skipped ? ` (${r.pairs.skipped} skipped)` : ''}`,
    `${r.guard.requests} requests, ${r.guard.rows} rows`,
    r.fit ? `${r.fit.series} series, ${r.fit.rows} rows` : 'declined',
    `${r.protocol_version}`,
    `${r.runtime.seconds.toFixed(1)} s (model ${r.runtime.model_seconds.toFixed(1)} s)`,
    md(r.command.join(' ')),
  ]);
  return [
    '## Model runs (asof run, behind the look-ahead guard)\n',
    table(['model', 'answered', 'guard checks', 'fit snapshot', 'protocol', 'run time', 'command'], rows),
    '',
  ].join('\n');
}

function breakdown(title: string, blocks: Record<string, RankBlock>): string {
  const rows = Object.entries(blocks).map(([group, b]) => [
    md(group),
    b.models
      .filter((m) => m.position === 1)
      .map((m) => md(m.model))
      .join(', ') || '–',
    b.models.map((m) => `${md(m.model)} ${m.position}`).join(' · '),
  ]);
  return `### By ${title}\n\n${table([title, 'first', 'positions'], rows)}`;
}

/**
 * The Markdown leaderboard. It ends with the generated "Where the baselines win" list, computed from the
 * results (verdict counts and every headline cell a baseline leads), so it cannot flatter a model.
 */
export function renderLeaderboard(results: ScoringResults): string {
  const baselines = new Set(results.models.filter((m) => m.baseline).map((m) => m.model));
  const submitted = results.models.filter((m) => !m.baseline).map((m) => m.model);
  const out: string[] = [];
  out.push('# asof leaderboard\n');
  out.push(
    `dataset ${code(results.dataset_id ?? 'in-memory')} · scorer ${code(results.scorer.name)} ${code(results.scorer.version)} · config ${code(results.config_sha256.slice(0, 12))}\n`,
  );
  out.push(
    `${results.origins.series} series, ${results.origins.origins} origins, ${results.origins.points} evaluation points; ` +
      `origins ${results.origins.overlapping ? 'overlap' : 'do not overlap'} (${md(results.origins.overlap_reason)}).\n`,
  );
  out.push(coverageSection(results, baselines));
  if (results.runs?.length) out.push(runsSection(results.runs));
  out.push(
    '## Overall (FinVerse §4.2: mean per unit → rank per metric → geometric mean per aspect → Σ aspect ranks)\n',
  );
  out.push(`${rankTable(results.ranks.overall, baselines)}\n`);
  out.push('## Verdicts against the random walk (Diebold–Mariano, HLN; all origins pooled)\n');
  const pooled = results.verdicts.rows.filter((r) => r.unit === '*');
  if (results.verdicts.status === 'refused') out.push(`**Refused.** ${md(results.verdicts.reason ?? '')}\n`);
  else {
    out.push(
      `${table(
        [
          'model',
          'origins',
          'p (SE better)',
          'p (CRPS better)',
          'p (SE worse)',
          'p (CRPS worse)',
          'CRPS',
          'verdict',
        ],
        pooled.map((r) => [
          r.partial ? `${md(r.model)} (its origins)` : md(r.model),
          String(r.n),
          fmt(r.squared_error?.p_model_better),
          fmt(r.crps?.p_model_better),
          fmt(r.squared_error?.p_model_worse),
          fmt(r.crps?.p_model_worse),
          r.crps_approximate ? `${r.crps_kind}\\*` : r.crps_kind,
          r.verdict ?? `n/a${r.note ? ` (${md(r.note)})` : ''}`,
        ]),
      )}\n`,
    );
    out.push(
      'A model beats the random walk only if both one-sided tests (squared error and CRPS) have p < ' +
        `${results.config.alpha}; * marks quantile-grid CRPS, compared only with the random walk on the same grid.\n`,
    );
  }
  if (results.same_points.length) out.push(partialSection(results, baselines));
  out.push('## Breakdowns\n');
  out.push(`${breakdown('scope', results.ranks.by_scope)}\n`);
  out.push(`${breakdown('category', results.ranks.by_category)}\n`);
  out.push(`${breakdown('frequency', results.ranks.by_frequency)}\n`);
  out.push('## Where the baselines win\n');
  if (results.verdicts.status === 'ok') {
    const count = (v: string) => pooled.filter((r) => !baselines.has(r.model) && r.verdict === v).length;
    out.push(
      `- ${count('beats')} of ${submitted.length} submitted model(s) beat the random walk, ${count('indistinguishable')} indistinguishable, ${count('worse')} worse (pooled DM).`,
    );
  } else
    out.push(
      '- Verdicts were refused (overlapping origins), so no model is credited with beating the random walk.',
    );
  const wins = results.baselines_win;
  const among = results.same_points.length ? ' among the models covering each unit fully' : '';
  out.push(
    `- A baseline leads ${wins.length} headline (unit, metric) cell(s)${among}${wins.length ? ':' : '.'}`,
  );
  const list = (rows: ScoringResults['baselines_win']) => {
    for (const w of rows) {
      out.push(
        `  - ${md(w.unit)} — ${md(w.metric)}: ${w.leaders.map(md).join(', ')} ${fmt(w.value)}` +
          (w.best_submitted
            ? ` (best submitted: ${md(w.best_submitted)} ${fmt(w.best_submitted_value)})`
            : ''),
      );
    }
  };
  list(wins);
  for (const p of results.same_points) {
    const n = p.baselines_win.length;
    out.push(
      `- On ${md(p.model)}'s own points a baseline leads ${n} headline (unit, metric) cell(s)${n ? ':' : '.'}`,
    );
    list(p.baselines_win);
  }
  return `${out.join('\n')}\n`;
}
