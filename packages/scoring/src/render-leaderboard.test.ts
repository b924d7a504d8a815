import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { escapeMarkdown } from './escape-markdown.ts';
import { makeRandomWalkPanel } from './make-random-walk-panel.ts';
import { renderLeaderboard } from './render-leaderboard.ts';
import { scorePanel } from './score-panel.ts';

/** Cells of a table line: split on pipes that are not backslash-escaped. */
function cells(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '|') n++;
  }
  return n - 1;
}

/** Removes Markdown backslash escapes: what a renderer shows for escaped text. */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

// Everything Markdown, GFM or HTML could act on, and a line break that would end a table row.
const HOSTILE = 'a|b`code`*bold*_em_<img src=x onerror=alert(1)>[link](http://h)&amp;~~s~~\\|\n# next';
// Passes the forecasts-file check (no control characters) and still carries all the Markdown.
const PRINTABLE = 'x|y`span`*strong*_v_<b>[url](t)';

describe('renderLeaderboard with hostile names', () => {
  const data = makeRandomWalkPanel({ seed: 5, units: 2, seriesPerUnit: 3, originsPerSeries: 12 });
  // A unit name from a user's taxonomy.
  for (const t of data.tasks) if (t.category === 'Cat1') t.category = 'Cat|1 <script>';
  const panel = buildEvaluationPanel(data.origins, data.targets);
  const model = (name: string, shift: number) =>
    alignForecasts(
      panel,
      forecastRowsToTable(data.targets.map((t) => ({ ...t, model: name, value: t.value + shift }))),
    )[0];
  const printable = model(PRINTABLE, 0.1);
  // Results documents are JSON anyone can edit: the renderer must not trust the names it is given.
  const hostile = model('placeholder', -0.2);
  hostile.model = HOSTILE;
  const results = scorePanel({ tasks: data.tasks, panel, models: [printable, hostile] });
  const md = renderLeaderboard(results);
  const lines = md.split('\n');

  it('keeps every table row at its header cell count', () => {
    let header = -1;
    let rows = 0;
    for (const line of lines) {
      if (!line.startsWith('|')) {
        header = -1;
        continue;
      }
      if (header < 0) header = cells(line);
      else {
        expect(cells(line), line).toBe(header);
        rows++;
      }
    }
    expect(rows).toBeGreaterThan(10);
  });

  it('prints the names as text: no HTML, link, code span, emphasis or heading gets through', () => {
    expect(md).not.toMatch(/(^|[^\\])<(img|b|script)/);
    expect(md).not.toMatch(/(^|[^\\])\[(link|url)/);
    expect(md).not.toMatch(/(^|[^\\])`(code|span)/);
    expect(md).not.toMatch(/(^|[^\\])\*(bold|strong)/);
    expect(md).not.toMatch(/(^|[^\\])&amp;/);
    expect(lines.some((l) => l.startsWith('# next'))).toBe(false);
    const shown = escapeMarkdown(HOSTILE);
    expect(md).toContain(shown);
    expect(md).toContain(escapeMarkdown(PRINTABLE));
    expect(md).toContain(escapeMarkdown('Cat|1 <script>'));
    // Unescaped, the cell text is the name itself (its line break as a space).
    expect(unescapeMarkdown(shown)).toBe(HOSTILE.replace('\n', ' '));
  });
});

describe('escapeMarkdown', () => {
  it('escapes list and heading markers at the start and control characters anywhere', () => {
    expect(escapeMarkdown('- a')).toBe('\\- a');
    expect(escapeMarkdown('1. a')).toBe('1\\. a');
    expect(escapeMarkdown('# a')).toBe('\\# a');
    expect(escapeMarkdown('a\u001b[31mb\u009b')).toBe('a\\\\u001b\\[31mb\\\\u009b');
    expect(escapeMarkdown('plain_name-1.0')).toBe('plain\\_name-1.0');
  });
});
