import { ASOF_HTML_GENERATOR as ASOF_REPORT_GENERATOR } from '@asof/output';
/** A cell of a report table: text, or a number printed with thousands separators / given digits. */
export type Cell = string | number | null;

export type Block =
  | { kind: 'chart'; id: string; title: string; caption?: string; svg: string; marks: number }
  | { kind: 'table'; caption?: string; columns: string[]; rows: Cell[][]; numeric?: boolean[] }
  | { kind: 'text'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'details'; summary: string; blocks: Block[] }
  | { kind: 'code'; text: string };

export interface Section {
  id: string;
  title: string;
  blocks: Block[];
}

export interface ReportDocument {
  title: string;
  subtitle: string;
  sections: Section[];
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Numbers as a reader wants them in a table: integers with separators, others with 4 significant digits. */
export function formatCell(value: Cell): string {
  if (value === null) return '–';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e6)) return value.toExponential(2);
  return Number(value.toPrecision(4)).toString();
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header{background:#1f3b57;color:#fff;padding:18px 28px}header h1{margin:0 0 4px;font-size:22px}header p{margin:0;opacity:.85}
nav{padding:10px 28px;background:#fff;border-bottom:1px solid #ddd;position:sticky;top:0;z-index:1}
nav a{margin-right:14px;color:#1f3b57;text-decoration:none;white-space:nowrap}nav a:hover{text-decoration:underline}
main{padding:6px 28px 40px;max-width:1200px}section{margin-top:26px}h2{font-size:19px;border-bottom:2px solid #1f3b57;padding-bottom:3px}
figure.chart{background:#fff;border:1px solid #e3e3e3;border-radius:4px;padding:10px;margin:14px 0;overflow-x:auto}
figure.chart figcaption{font-weight:600;margin-bottom:6px}figure.chart p.caption{font-weight:400;color:#555;margin:6px 0 0}
table{border-collapse:collapse;background:#fff;margin:10px 0;font-size:13px}th,td{border:1px solid #e0e0e0;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f6}td.n{text-align:right;font-variant-numeric:tabular-nums}caption{text-align:left;font-weight:600;padding:4px 0}
details{margin:10px 0}summary{cursor:pointer;color:#1f3b57}pre{background:#fff;border:1px solid #e3e3e3;padding:10px;overflow-x:auto;font-size:12px}
code{font-size:12px}`;

function renderBlock(block: Block): string {
  switch (block.kind) {
    case 'chart':
      return `<figure class="chart" id="chart-${escapeHtml(block.id)}" data-chart="${escapeHtml(block.id)}" data-marks="${block.marks}"><figcaption>${escapeHtml(block.title)}</figcaption>${block.svg}${block.caption ? `<p class="caption">${escapeHtml(block.caption)}</p>` : ''}</figure>`;
    case 'table': {
      const numeric =
        block.numeric ?? block.columns.map((_, c) => block.rows.some((r) => typeof r[c] === 'number'));
      const head = block.columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
      const body = block.rows
        .map(
          (r) =>
            `<tr>${r.map((v, c) => `<td${numeric[c] ? ' class="n"' : ''}>${escapeHtml(formatCell(v))}</td>`).join('')}</tr>`,
        )
        .join('\n');
      return `<table>${block.caption ? `<caption>${escapeHtml(block.caption)}</caption>` : ''}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
    }
    case 'text':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'list':
      return `<ul>${block.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
    case 'details':
      return `<details><summary>${escapeHtml(block.summary)}</summary>${block.blocks.map(renderBlock).join('\n')}</details>`;
    case 'code':
      return `<pre><code>${escapeHtml(block.text)}</code></pre>`;
  }
}

/**
 * One self-contained HTML page: inline CSS, charts as inline SVG, no script and no external resource, so it
 * opens offline in any browser (and in viewers that block scripts). Every text is escaped here.
 */
export function renderReportHtml(doc: ReportDocument): string {
  const nav = doc.sections.map((s) => `<a href="#${escapeHtml(s.id)}">${escapeHtml(s.title)}</a>`).join('');
  const sections = doc.sections
    .map(
      (s) =>
        `<section id="${escapeHtml(s.id)}"><h2>${escapeHtml(s.title)}</h2>\n${s.blocks.map(renderBlock).join('\n')}\n</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="generator" content="${ASOF_REPORT_GENERATOR}"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title><style>${CSS}</style></head>
<body><header><h1>${escapeHtml(doc.title)}</h1><p>${escapeHtml(doc.subtitle)}</p></header>
<nav>${nav}</nav>
<main>
${sections}
</main></body></html>
`;
}
