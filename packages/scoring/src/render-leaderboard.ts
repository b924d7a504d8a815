import { escapeMarkdown as md } from './escape-markdown.ts';
import { groupBaselinesWin } from './group-baselines-win.ts';
import { code, coverageText, fmt, percent, rankCaption, rankTable, table } from './leaderboard-format.ts';
import { leaderboardHeading, pooledIcTable } from './leaderboard-sections.ts';
import { NO_CHANGE_TOLERANCE } from './metrics/float-tolerance.ts';
import { RANDOM_WALK_SIGMA_RETURNS } from './random-walk-sigma.ts';
import { memorisationGapSection, windowNote, windowSections } from './render-windows.ts';
import type { MetricValue, RankBlock, ScoringResults } from './results-schema.ts';

/** The rank blocks a model is ranked in ('overall', 'scope: Macro', …). */
export function rankedIn(results: ScoringResults, model: string): string[] {
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
export function isHeadline(v: MetricValue): boolean {
  return (
    v.family === 'finverse' ||
    ['tycheon.mae', 'tycheon.rmse', 'tycheon.mase', 'tycheon.crps', 'tycheon.crps*'].includes(v.metric)
  );
}

/** One line for a terminal above the overall table: the family and metric it ranks by, on which points. */
export function overallRankingLine(results: ScoringResults): string {
  const b = results.ranks.overall;
  return (
    `overall ranking: FinVerse rank aggregation (metric family ${b.family}, ${b.metrics.length} metric(s)) on ` +
    `${b.points.origins} shared paths (${percent(b.points.share)} of the task set); ` +
    'vs random walk: Tycheon squared error and CRPS (Diebold–Mariano)'
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
    const baseline = results.models.find((m) => m.model === p.model)?.baseline;
    return (
      `${p.model}: ${baseline ? 'baseline scored only where it was fitted' : 'partial'}, ${coverageText(c)}; with the baselines on its points: ` +
      `${pos === undefined ? 'no FinVerse cell' : `position ${pos} of ${p.ranks.models.length}`}; ` +
      `vs random walk on its origins: ${verdict}`
    );
  });
  return [
    ...lines,
    'rank blocks (FinVerse rank aggregation) rank every model with a path in each of their units on the paths all of them forecast; partial models are also compared with the baselines on their own points (leaderboard: "Partial models")',
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
    `## ${leaderboardHeading('coverage', results)}\n`,
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
  const out: string[] = [`## ${leaderboardHeading('partial', results)}\n`];
  for (const p of results.same_points) {
    // The baselines it is compared with on its points (GARCH, partial itself, is not among them).
    const names = [...new Set(p.values.map((v) => v.model))].filter((m) => baselines.has(m)).sort();
    const c = results.models.find((m) => m.model === p.model)!.coverage;
    out.push(`### ${md(p.model)}\n`);
    out.push(`${coverageText(c)}; every value below is on these points only.\n`);
    if (p.ranks.models.length)
      out.push(`${rankCaption(p.ranks, 'the task set')}\n\n${rankTable(p.ranks, baselines)}\n`);
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

/**
 * How the model process was confined (issue 52): a run without the sandbox could read the split's
 * targets, and the leaderboard says so beside its rank, not only results.json.
 */
function sandboxCell(s: NonNullable<ScoringResults['runs']>[number]['sandbox']): string {
  if (!s) return 'not recorded';
  if (s.kind === 'none') return `none: could read the answers (${md(s.detail)})`;
  return `bubblewrap: no network, ${s.hidden.length} output(s) hidden`;
}

/** Models run by `asof run`: what each was served through the look-ahead guard, and how it was started. */
function runsSection(results: ScoringResults, runs: NonNullable<ScoringResults['runs']>): string {
  const rows = runs.map((r) => [
    md(r.model),
    `${r.pairs.forecast} of ${r.pairs.asked} pairs${r.pairs.skipped ? ` (${r.pairs.skipped} skipped)` : ''}`,
    `${r.guard.requests} requests, ${r.guard.rows} rows`,
    r.fit ? `${r.fit.series} series, ${r.fit.rows} rows` : 'declined',
    `${r.protocol_version}`,
    `${r.runtime.seconds.toFixed(1)} s (model ${r.runtime.model_seconds.toFixed(1)} s)`,
    sandboxCell(r.sandbox),
    md(r.command.join(' ')),
  ]);
  return [
    `## ${leaderboardHeading('runs', results)}\n`,
    table(
      ['model', 'answered', 'guard checks', 'fit snapshot', 'protocol', 'run time', 'sandbox', 'command'],
      rows,
    ),
    '',
  ].join('\n');
}

type Verdict = 'beats' | 'indistinguishable' | 'worse';

/** Per model: the pooled verdict and how many units got each verdict (n/a: no test in the unit). */
export interface UnitVerdictCounts {
  model: string;
  partial: boolean;
  pooled: Verdict | null;
  units: Record<Verdict | 'n/a', number>;
  /** Units whose verdict is the opposite of a pooled 'beats' or 'worse'. */
  opposite: string[];
  /** Units whose verdict differs from the pooled one (the opposite ones included). */
  differing: number;
}

/** The per-unit verdicts beside the pooled one, per model (issue 18: they can disagree). */
export function unitVerdictCounts(results: ScoringResults): UnitVerdictCounts[] {
  const out = new Map<string, UnitVerdictCounts>();
  for (const r of results.verdicts.rows) {
    const key = `${r.model}\u0000${r.partial ? 1 : 0}`;
    let c = out.get(key);
    if (!c) {
      c = {
        model: r.model,
        partial: r.partial === true,
        pooled: null,
        units: { beats: 0, indistinguishable: 0, worse: 0, 'n/a': 0 },
        opposite: [],
        differing: 0,
      };
      out.set(key, c);
    }
    if (r.unit === '*') c.pooled = r.verdict;
  }
  for (const r of results.verdicts.rows) {
    if (r.unit === '*') continue;
    const c = out.get(`${r.model}\u0000${r.partial ? 1 : 0}`)!;
    c.units[r.verdict ?? 'n/a']++;
    if (r.verdict !== c.pooled) c.differing++;
    const opposite = { beats: 'worse', worse: 'beats' } as Record<string, string>;
    if (c.pooled && opposite[c.pooled] === r.verdict) c.opposite.push(r.unit);
  }
  return [...out.values()];
}

function unitVerdictSection(results: ScoringResults): string {
  const counts = unitVerdictCounts(results);
  const out = [
    '### Per unit (each unit tested on its own origins)\n',
    table(
      ['model', 'pooled', 'units beats', 'indistinguishable', 'worse', 'n/a', 'units disagreeing'],
      counts.map((c) => [
        c.partial ? `${md(c.model)} (its origins)` : md(c.model),
        c.pooled ?? 'n/a',
        String(c.units.beats),
        String(c.units.indistinguishable),
        String(c.units.worse),
        String(c.units['n/a']),
        String(c.differing),
      ]),
    ),
    '',
  ];
  const opposite = counts.filter((c) => c.opposite.length);
  for (const c of opposite) {
    const shown = c.opposite.slice(0, 3).map(md).join('; ');
    const more = c.opposite.length > 3 ? ` and ${c.opposite.length - 3} more in results.json (verdicts)` : '';
    out.push(
      `- **The pooled and per-unit verdicts disagree for ${md(c.model)}**: pooled ${c.pooled}, but ${c.pooled === 'beats' ? 'worse' : 'beats'} in ${c.opposite.length} unit(s): ${shown}${more}.`,
    );
  }
  if (opposite.length === 0 && counts.some((c) => c.differing))
    out.push(
      '- No unit contradicts a pooled beats or worse; units that differ from the pooled verdict are indistinguishable where it is not, or the other way round.',
    );
  out.push('');
  return out.join('\n');
}

/** Tycheon IC / RankIC and the cost-aware diagnostic, all origins pooled (per unit: results.json values). */
function pooledSection(results: ScoringResults): string {
  const c = results.config.cost_diagnostic;
  const bp = (x: number) => `${(x * 10_000).toFixed(1)} bp`;
  const ic = pooledIcTable(results);
  return [
    `## ${leaderboardHeading('ic', results)}\n`,
    table(
      ic.columns,
      ic.rows.map((r) => [
        r.partial ? `${md(r.model)} (its origins)` : md(r.model),
        ...r.values.map((v) => fmt(v)),
      ]),
    ),
    '',
    'IC / RankIC: Pearson / Spearman correlation between forecast and realised horizon-end returns across origins (n/a for a constant forecast such as the random walk). ' +
      `Diagnostic: each origin holds sign(median forecast) for one horizon and pays half spread ${bp(c.half_spread)} + slippage ${bp(c.slippage)} + fee ${bp(c.fee)} per unit traded; returns are per origin (one horizon). ` +
      'It asks whether an edge would survive frictions; it is not a trading system and not a recommendation. Per unit: tycheon.ic, tycheon.rank_ic, tycheon.cost_* in results.json.\n',
  ].join('\n');
}

/** "Where the baselines win" cells, compact: per category the top cells, then how many more results.json holds. */
function baselinesWinGroups(rows: ScoringResults['baselines_win']): string[] {
  const out: string[] = [];
  for (const g of groupBaselinesWin(rows)) {
    const leaders = g.byLeader.slice(0, 3).map((l) => `${md(l.leader)} ${l.cells}`);
    if (g.byLeader.length > 3) leaders.push(`${g.byLeader.length - 3} more leader sets`);
    out.push(`\n### ${md(g.category)}: ${g.cells} cell(s) (${leaders.join(', ')})\n`);
    out.push(
      table(
        ['unit', 'metric', 'leader(s)', 'value', 'best submitted'],
        g.shown.map((w) => [
          md(w.unit),
          md(w.metric),
          w.leaders.map(md).join(', '),
          fmt(w.value),
          w.best_submitted ? `${md(w.best_submitted)} ${fmt(w.best_submitted_value)}` : '–',
        ]),
      ),
    );
    if (g.more) out.push(`\n${g.more} more in results.json (baselines_win).`);
  }
  return out;
}

function breakdown(title: string, blocks: Record<string, RankBlock>): string {
  const rows = Object.entries(blocks).map(([group, b]) => [
    md(group),
    `${b.family}: rank aggregation of ${b.metrics.length} metric(s)`,
    `${b.points.origins} paths (${percent(b.points.share)})`,
    b.models
      .filter((m) => m.position === 1)
      .map((m) => md(m.model))
      .join(', ') || '–',
    b.models.map((m) => `${md(m.model)} ${m.position}`).join(' · '),
    b.not_ranked.map((n) => md(n.model)).join(', ') || '–',
  ]);
  return `### By ${title} (FinVerse rank aggregation, metric family \`finverse\`)\n\n${table([title, 'ranked by', 'shared points', 'first', 'positions', 'not ranked'], rows)}`;
}

/** Where the fitted baselines were fitted, fell back (and why) and are scored (results.json baseline_fits). */
function baselineFitsSection(results: ScoringResults): string {
  const fits = results.baseline_fits ?? [];
  if (!fits.length) return '';
  const rows = fits.map((f) => [
    md(f.model),
    String(f.origins),
    String(f.fitted),
    f.fallback
      ? `${f.fallback} (${Object.entries(f.reasons)
          .map(([r, n]) => `${md(r)} ${n}`)
          .join(', ')})`
      : '0',
    String(f.no_path),
    String(f.not_converged),
    f.scored_on === 'all'
      ? 'every origin (fallbacks included)'
      : f.fitted
        ? `its ${f.fitted} fitted origins only`
        : 'not scored: fitted at no origin',
  ]);
  return [
    `## ${leaderboardHeading('baseline-fits', results)}\n`,
    table(['baseline', 'origins', 'fitted', 'fallback (why)', 'no path', 'not converged', 'scored on'], rows),
    '',
    "GARCH's fallback is a constant variance (the window's mean squared return) around the random walk: it is not GARCH, so GARCH is scored only where GARCH(1,1) was fitted, as a partial model (its coverage above, its verdict on its origins, and the baselines on its points under Partial models). short\\_window: fewer one-step returns in the window than the fit needs; fit\\_failed: the ML fit failed; no\\_variance: no finite positive variance forecast. ARIMA's fallback is ARIMA(0,1,0), an ARIMA model, and is scored as arima.\n",
  ].join('\n');
}

/** The codes that change how every result on the data is read: listed first. */
const DATA_WARNINGS_FIRST = [
  'SURVIVORSHIP',
  'SYNTHETIC',
  'RULE_BASED_AVAILABLE_AT',
  'MEMBERSHIP_WITHOUT_SERIES',
];

/** The data's own warnings (the split's manifest, carrying its universe's), right under the title. */
function datasetWarningsSection(results: ScoringResults): string {
  const warnings = results.dataset_warnings;
  if (!warnings.length) return '';
  const rank = (c: string) => {
    const i = DATA_WARNINGS_FIRST.indexOf(c);
    return i < 0 ? DATA_WARNINGS_FIRST.length : i;
  };
  const sorted = [...warnings].sort((a, b) => rank(a.code) - rank(b.code));
  return `## ${leaderboardHeading('data-warnings', results)}\n\n${sorted
    .map((w) => `- **${md(w.code)}**${w.count ? ` (${w.count})` : ''}: ${md(w.message)}`)
    .join('\n')}\n`;
}

/** How the baselines scored here are computed, where a reader would ask (issue 51: what changed and why). */
function baselinesNote(baselines: Set<string>): string {
  const windows = Object.entries(RANDOM_WALK_SIGMA_RETURNS)
    .map(([f, n]) => `${f} ${n}`)
    .join(', ');
  const parts = [
    `The random walk's σ̂ is the std of the last one-step returns served at the origin (${windows} returns, or all there are when fewer; docs/decisions/0057): one σ̂ feeds its CRPS, its intervals and its QLIKE.`,
    `A forecast whose return is within ${NO_CHANGE_TOLERANCE} of 0 is no change: IC, RankIC and direction are n/a for it (docs/decisions/0055).`,
  ];
  if (baselines.has('drift'))
    parts.push(
      "The drift baseline's slope runs from the first to the last served observation over their distance in grid steps, holes included (docs/decisions/0056).",
    );
  return `${parts.join(' ')}\n`;
}

/**
 * What the ARIMA baseline is, where the scorer ran it: the port searches only non-seasonal models (issue 51),
 * so a reader comparing with R's auto.arima on a seasonal ts knows the difference.
 */
const ARIMA_NOTE =
  'The `arima` baseline is forecast::auto.arima with a **non-seasonal** search (stepwise over p, d, q and a constant; no seasonal AR, MA or differencing terms at any frequency), fitted by CSS-ML on the log levels of a positive window (docs/decisions/0013).\n';

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
  const only = windowNote(results);
  if (only) out.push(only);
  if (results.config.fintsb_compat === 'code')
    out.push(
      "**FinTSB cells follow FinTSB's published code, not the paper's text** (`--fintsb-compat code`): fintsb.code.* cells use (1 − c)² on the mean return, TopK-Drop keeping k − n names and buying n, MDD from NAV₁, ICIR with ddof 0, and IR as its report prints it (the IC). Compare them with the paper's tables only.\n",
    );
  out.push(datasetWarningsSection(results));
  out.push(coverageSection(results, baselines));
  if (results.runs?.length) out.push(runsSection(results, results.runs));
  out.push(baselinesNote(baselines));
  if (baselines.has('arima')) out.push(ARIMA_NOTE);
  const fits = baselineFitsSection(results);
  if (fits) out.push(fits);
  out.push(`## ${leaderboardHeading('overall', results)}\n`);
  out.push(`${rankCaption(results.ranks.overall)}\n`);
  out.push(`${rankTable(results.ranks.overall, baselines)}\n`);
  out.push(
    'This ranking reads the FinVerse metrics only (hit rates, MASE, IC and portfolio metrics at the tasks’ (p, h)). The verdicts below test another family, the Tycheon horizon-end losses (squared error and CRPS), against the random walk: a model can be first here and worse there. Every model with a path in each unit is ranked on the paths all ranked models forecast, so a model that skips pairs removes them from everyone’s ranking, and its coverage is in the table above.\n',
  );
  out.push(`## ${leaderboardHeading('verdicts', results)}\n`);
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
        `${results.config.alpha}; * marks quantile-grid CRPS, compared only with the random walk on the same grid. ` +
        "The random walk is its distribution N(0, σ̂²h): a point model's CRPS (its absolute error) is paired with the Gaussian's.\n",
    );
    out.push(unitVerdictSection(results));
  }
  if (results.pooled.length) out.push(pooledSection(results));
  if (results.same_points.length) out.push(partialSection(results, baselines));
  const windows = windowSections(results, baselines);
  if (windows) out.push(windows);
  const gap = memorisationGapSection(results, baselines);
  if (gap) out.push(gap);
  out.push(`## ${leaderboardHeading('breakdowns', results)}\n`);
  out.push(`${breakdown('scope', results.ranks.by_scope)}\n`);
  out.push(`${breakdown('category', results.ranks.by_category)}\n`);
  out.push(`${breakdown('frequency', results.ranks.by_frequency)}\n`);
  out.push(`## ${leaderboardHeading('baselines-win', results)}\n`);
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
    `- A baseline leads ${wins.length} headline (unit, metric) cell(s)${among}${wins.length ? '; per category, the top cells (largest lead over the best submitted model first):' : '.'}`,
  );
  out.push(...baselinesWinGroups(wins));
  for (const p of results.same_points) {
    const n = p.baselines_win.length;
    out.push(
      `\n- On ${md(p.model)}'s own points a baseline leads ${n} headline (unit, metric) cell(s)${n ? ':' : '.'}`,
    );
    out.push(...baselinesWinGroups(p.baselines_win));
  }
  return `${out.join('\n')}\n`;
}
