import { escapeMarkdown as md } from './escape-markdown.ts';
import type { Coverage, RankBlock } from './results-schema.ts';

export function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a';
  return Math.abs(x) >= 1e4 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(2) : x.toFixed(digits);
}

/** An identifier in a code span, or escaped text when it could close the span. */
export function code(text: string): string {
  return /^[\w.:@/-]+$/.test(text) ? `\`${text}\`` : md(text);
}

/** A GFM table. Cells are Markdown already: text from users goes in through md(). */
export function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export function rankTable(block: RankBlock, baselines: Set<string>): string {
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

/** The family and metric a rank block ranks by, on which points (one line above each rank table). */
export function rankCaption(block: RankBlock, what = 'the task set'): string {
  const p = block.points;
  const shown = block.metrics.slice(0, 6).map(md).join(', ');
  const more = block.metrics.length > 6 ? ` and ${block.metrics.length - 6} more` : '';
  const left = block.not_ranked.length
    ? ` Not ranked here: ${block.not_ranked.map((n) => `${md(n.model)} (${md(n.reason)})`).join('; ')}.`
    : '';
  return (
    `Ranked by **FinVerse rank aggregation** (metric family \`${block.family}\`; ${block.metrics.length} metric(s): ${shown}${more}), ` +
    `on ${p.origins} paths, ${p.points} points (${percent(p.share)} of ${what}) that every ranked model forecasts.${left}`
  );
}

/** A share of the task set as a percentage with enough digits to tell a few series from none. */
export function percent(share: number): string {
  if (share === 1) return '100%';
  const p = share * 100;
  return `${p >= 1 ? p.toFixed(1) : p.toPrecision(2)}%`;
}

export function coverageText(c: Coverage): string {
  return `${c.series} series, ${c.origins} origins, ${c.points} points (${percent(c.share)} of the task set)`;
}
