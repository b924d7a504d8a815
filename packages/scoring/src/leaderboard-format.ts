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

/** A share of the task set as a percentage with enough digits to tell a few series from none. */
export function percent(share: number): string {
  if (share === 1) return '100%';
  const p = share * 100;
  return `${p >= 1 ? p.toFixed(1) : p.toPrecision(2)}%`;
}

export function coverageText(c: Coverage): string {
  return `${c.series} series, ${c.origins} origins, ${c.points} points (${percent(c.share)} of the task set)`;
}
