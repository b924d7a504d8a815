import { escapeMarkdown as md } from './escape-markdown.ts';
import type { RankBlock, ScoringResults } from './results-schema.ts';

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
          md(r.model),
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
  out.push(`- A baseline leads ${wins.length} headline (unit, metric) cell(s)${wins.length ? ':' : '.'}`);
  for (const w of wins) {
    out.push(
      `  - ${md(w.unit)} — ${md(w.metric)}: ${w.leaders.map(md).join(', ')} ${fmt(w.value)}` +
        (w.best_submitted ? ` (best submitted: ${md(w.best_submitted)} ${fmt(w.best_submitted_value)})` : ''),
    );
  }
  return `${out.join('\n')}\n`;
}
