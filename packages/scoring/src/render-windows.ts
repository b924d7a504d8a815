import { escapeMarkdown as md } from './escape-markdown.ts';
import { coverageText, fmt, rankCaption, rankTable, table } from './leaderboard-format.ts';
import { leaderboardHeading } from './leaderboard-sections.ts';
import type { MemorisationGap, ScoringResults, WindowScores } from './results-schema.ts';

/** What each knowledge window holds (the split's labels, packages/calendar label-window.ts). */
export const WINDOW_MEANING: Record<WindowScores['window'], string> = {
  T1: 'targets known before the model cutoff: the model may have seen the answers',
  T2: 'origins after the cutoff, targets known by the run date: unseen, and scorable',
  T3: 'targets not all known at the run date (pending): scored on the steps known; an origin without its horizon-end value has no Tycheon metric or verdict',
};

/** One line per window for a terminal: its origins, who is first and how many submitted models beat the random walk. */
export function windowSummary(results: ScoringResults): string[] {
  const lines: string[] = [];
  if (results.config.window) {
    lines.push(
      `window ${results.config.window} only (${WINDOW_MEANING[results.config.window]}): ${results.origins.origins} origins`,
    );
  }
  for (const w of results.windows) {
    const first = w.ranks.overall.models.filter((m) => m.position === 1).map((m) => m.model);
    const submitted = w.models.filter((m) => !m.baseline).length;
    // As the leaderboard counts them: a partial model's verdict is on its own origins.
    const pooled = w.verdicts.rows.filter((r) => r.unit === '*');
    const beats = pooled.filter(
      (r) => r.verdict === 'beats' && !w.models.find((m) => m.model === r.model)?.baseline,
    ).length;
    lines.push(
      `window ${w.window}: ${w.origins.origins} origins; first ${first.join(', ') || '–'}; ` +
        (w.verdicts.status === 'ok'
          ? `${beats} of ${submitted} submitted model(s) beat the random walk`
          : 'verdicts refused'),
    );
  }
  const gap = results.memorisation_gap.filter((g) => !g.baseline && g.metric === 'squared_error');
  for (const g of gap)
    lines.push(`memorisation gap of ${g.model} (squared error, T1 − T2): ${fmt(g.gap)} (leaderboard)`);
  return lines;
}

/** Under the title of a one-window score: which origins every value below is on. */
export function windowNote(results: ScoringResults): string {
  const w = results.config.window;
  if (!w) return '';
  return `**Window ${w} only** (\`--window ${w}\`: ${md(WINDOW_MEANING[w])}). Every value below is on its ${results.origins.origins} origins; the baselines were fitted on every origin of the split, so these are the numbers of the ${w} section of a score of all origins.\n`;
}

function windowSection(w: WindowScores, baselines: Set<string>): string {
  const out = [
    `### ${w.window}: ${md(WINDOW_MEANING[w.window])}\n`,
    `${w.origins.series} series, ${w.origins.origins} origins, ${w.origins.points} evaluation points.\n`,
  ];
  const partial = w.models.filter((m) => m.coverage.share < 1 && !m.baseline);
  for (const m of partial) out.push(`- ${md(m.model)} covers ${coverageText(m.coverage)} of this window.`);
  if (partial.length) out.push('');
  if (w.ranks.overall.models.length)
    out.push(
      `${rankCaption(w.ranks.overall, `the window's task set`)}\n\n${rankTable(w.ranks.overall, baselines)}\n`,
    );
  if (w.verdicts.status === 'refused') out.push(`Verdicts refused: ${md(w.verdicts.reason ?? '')}\n`);
  else {
    const rows = w.verdicts.rows.filter((r) => r.unit === '*');
    out.push(
      rows.some((r) => r.n > 0)
        ? `${table(
            ['model', 'origins', 'p (SE better)', 'p (CRPS better)', 'verdict'],
            rows.map((r) => [
              r.partial ? `${md(r.model)} (its origins)` : md(r.model),
              String(r.n),
              fmt(r.squared_error?.p_model_better),
              fmt(r.crps?.p_model_better),
              r.verdict ?? 'n/a',
            ]),
          )}\n`
        : 'No verdict: no origin of this window has a known horizon-end value.\n',
    );
  }
  return out.join('\n');
}

/** A section per knowledge window: ranks and pooled verdicts on the window's origins (every value: results.json windows). */
export function windowSections(results: ScoringResults, baselines: Set<string>): string {
  if (!results.windows.length) return '';
  return [
    `## ${leaderboardHeading('windows', results)}\n`,
    'The split labels each origin with its window against the model cutoff and the run date. Each window below is scored on its own origins, as the sections above are on all of them; every value, pooled value, rank and verdict per window is in results.json (windows).\n',
    ...results.windows.map((w) => windowSection(w, baselines)),
  ].join('\n');
}

/** The T1 − T2 table: per model, its pooled DM losses in each window and their difference. */
export function memorisationGapSection(results: ScoringResults, baselines: Set<string>): string {
  const gap = results.memorisation_gap;
  if (!gap.length) return '';
  const by = new Map<string, Partial<Record<MemorisationGap['metric'], MemorisationGap>>>();
  for (const g of gap) by.set(g.model, { ...by.get(g.model), [g.metric]: g });
  const rows = [...by.entries()].map(([model, g]) => [
    baselines.has(model) ? `${md(model)} (baseline)` : md(model),
    `${g.squared_error?.n_t1 ?? 0} / ${g.squared_error?.n_t2 ?? 0}`,
    fmt(g.squared_error?.t1),
    fmt(g.squared_error?.t2),
    fmt(g.squared_error?.gap),
    fmt(g.crps?.t1),
    fmt(g.crps?.t2),
    fmt(g.crps?.gap),
  ]);
  return [
    `## ${leaderboardHeading('memorisation-gap', results)}\n`,
    table(
      ['model', 'origins T1 / T2', 'squared error T1', 'T2', 'T1 − T2', 'CRPS T1', 'T2', 'T1 − T2'],
      rows,
    ),
    '',
    "Each model's mean Diebold–Mariano loss (horizon-end, Tycheon space) over its origins in T1 and in T2, and the difference. " +
      'A model that saw T1’s answers in training can do better there than on T2 (a negative gap). The baselines cannot have memorised anything: their gaps show how much the two periods differ by themselves, so read a model’s gap against theirs. Per-origin losses: results.json losses.\n',
  ].join('\n');
}
