import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { escapeMarkdown } from './escape-markdown.ts';
import { groupBaselinesWin } from './group-baselines-win.ts';
import { makeRandomWalkPanel } from './make-random-walk-panel.ts';
import { renderLeaderboard, unitVerdictCounts } from './render-leaderboard.ts';
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

describe('renderLeaderboard: per-unit verdicts, pooled diagnostics, compact baselines-win (issues 18.8, 19.5)', () => {
  const data = makeRandomWalkPanel({ seed: 6, units: 3, seriesPerUnit: 4, originsPerSeries: 20, tail: 40 });
  data.tasks.forEach((t) => {
    // Three units over two categories: Cat0 holds two of them.
    if (t.category === 'Cat2') t.category = 'Cat0';
  });
  const panel = buildEvaluationPanel(data.origins, data.targets);
  const oracle = alignForecasts(
    panel,
    forecastRowsToTable(data.targets.map((t) => ({ ...t, model: 'oracle', value: t.value + 0.01 }))),
  );
  const scored = scorePanel({ tasks: data.tasks, panel, models: oracle, options: { baselines: ['drift'] } });

  it('says how the baselines are computed: the random walk σ̂ window, the no-change rule, drift on the grid', () => {
    const md = renderLeaderboard(scored);
    expect(md).toContain(
      '(BD 260, D 365, W 52, M 60, Q 20, A 20 returns, or all there are when fewer; docs/decisions/0057)',
    );
    expect(md).toMatch(
      /within 1e-9 of 0 is no change: IC, RankIC and direction are n\/a for it \(docs\/decisions\/0055\)/,
    );
    expect(md).toMatch(/drift baseline's slope .* grid steps, holes included \(docs\/decisions\/0056\)/);
  });

  it('shows units beats / indistinguishable / worse per model beside the pooled verdict', () => {
    const md = renderLeaderboard(scored);
    expect(md).toMatch(/### Per unit \(each unit tested on its own origins\)/);
    expect(md).toMatch(/\| oracle \| beats \| 3 \| 0 \| 0 \| 0 \| 0 \|/);
    expect(md).not.toMatch(/verdicts disagree/);
    const counts = unitVerdictCounts(scored);
    expect(counts.find((c) => c.model === 'oracle')!.units.beats).toBe(3);
  });

  it('says when the pooled and per-unit verdicts disagree', () => {
    // results.json is data: a pooled 'beats' with a unit 'worse' (as seen on the default split) is stated.
    const flipped = structuredClone(scored);
    const row = flipped.verdicts.rows.find((r) => r.model === 'oracle' && r.unit !== '*')!;
    row.verdict = 'worse';
    const md = renderLeaderboard(flipped);
    expect(md).toContain(
      `**The pooled and per-unit verdicts disagree for oracle**: pooled beats, but worse in 1 unit(s): ${escapeMarkdown(row.unit)}.`,
    );
    expect(md).toMatch(/\| oracle \| beats \| 2 \| 0 \| 1 \| 0 \| 1 \|/);
  });

  it('states the pooled IC / RankIC and the cost diagnostic, labelled diagnostic, not a trading system', () => {
    const md = renderLeaderboard(scored);
    expect(md).toMatch(
      /## Tycheon IC and the cost-aware diagnostic \(diagnostic, not a trading system; all origins pooled\)/,
    );
    expect(md).toMatch(/\| random\\_walk \| n\/a \| n\/a \| 0\.0000 \| 0\.0000 \| n\/a \| 0\.0000 \|/);
    expect(md).toMatch(/half spread 5\.0 bp \+ slippage 5\.0 bp \+ fee 1\.0 bp per unit traded/);
  });

  it('lists the baselines-win cells compactly: per category the top cells, then how many more', () => {
    // A useless model (the random walk plus noise): the baselines lead most cells.
    let seed = 3;
    const noise = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const noisy = alignForecasts(
      panel,
      forecastRowsToTable(
        data.origins.flatMap((o) =>
          Array.from({ length: o.horizon }, (_, k) => ({
            model: 'noisy',
            series_id: o.series_id,
            origin: o.origin,
            step: k + 1,
            value: o.last_value + 3 * noise(),
          })),
        ),
      ),
    );
    const scored = scorePanel({ tasks: data.tasks, panel, models: noisy, options: { baselines: ['drift'] } });
    const md = renderLeaderboard(scored);
    const tail = md.slice(md.indexOf('## Where the baselines win'));
    const groups = groupBaselinesWin(scored.baselines_win);
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) {
      expect(tail).toContain(`### ${g.category}: ${g.cells} cell(s)`);
      for (const w of g.shown)
        expect(tail).toContain(`| ${escapeMarkdown(w.unit)} | ${escapeMarkdown(w.metric)} |`);
      for (const w of g.rows.slice(g.shown.length)) {
        const line = `| ${escapeMarkdown(w.unit)} | ${escapeMarkdown(w.metric)} | ${w.leaders.map(escapeMarkdown).join(', ')} |`;
        expect(tail).not.toContain(line);
      }
      if (g.more) expect(tail).toContain(`${g.more} more in results.json (baselines_win).`);
    }
    // Top cells are those a baseline leads by the most over the best submitted model.
    const first = groups[0].shown.filter((w) => w.best_submitted_value !== null);
    const lead = (w: (typeof first)[number]) =>
      Math.abs(w.best_submitted_value! - w.value) / Math.abs(w.value);
    for (let i = 1; i < first.length; i++) expect(lead(first[i - 1])).toBeGreaterThanOrEqual(lead(first[i]));
    // The section's length is bounded by the groups, not by the cells (all of them stay in results.json).
    expect(scored.baselines_win.length).toBeGreaterThan(groups.reduce((n, g) => n + g.shown.length, 0));
    expect(tail.split('\n').length).toBeLessThanOrEqual(8 + 11 * groups.length);
  });

  it('labels FinTSB code conventions in the header', () => {
    const compat = scorePanel({
      tasks: data.tasks,
      panel,
      models: oracle,
      options: { baselines: [], fintsbCompat: 'code' },
    });
    expect(renderLeaderboard(compat)).toMatch(
      /\*\*FinTSB cells follow FinTSB's published code, not the paper's text\*\*/,
    );
    expect(renderLeaderboard(scored)).not.toMatch(/published code/);
  });
});

describe('the data warnings', () => {
  const data = makeRandomWalkPanel({ seed: 9, units: 1, seriesPerUnit: 3, originsPerSeries: 8 });
  const panel = buildEvaluationPanel(data.origins, data.targets);
  const datasetWarnings = [
    { code: 'EVAL_TARGET_TOO_SHORT', message: 'dropped', count: 2 },
    { code: 'SYNTHETIC', message: 'generated data' },
    { code: 'SURVIVORSHIP', message: 'today’s members only' },
  ];
  const results = scorePanel({ tasks: data.tasks, panel, models: [], datasetWarnings });

  it('are carried into the results as the manifest gave them', () => {
    expect(results.dataset_warnings).toEqual(datasetWarnings);
  });

  it('head the leaderboard, SURVIVORSHIP and SYNTHETIC before the rest', () => {
    const md = renderLeaderboard(results);
    const head = md.split('## Coverage')[0];
    const at = (code: string) => head.indexOf(`**${code}**`);
    expect(at('SURVIVORSHIP')).toBeGreaterThan(0);
    expect(at('SURVIVORSHIP')).toBeLessThan(at('SYNTHETIC'));
    expect(at('SYNTHETIC')).toBeLessThan(at('EVAL\\_TARGET\\_TOO\\_SHORT'));
  });

  it('leave the leaderboard without the section when the data has none', () => {
    const bare = scorePanel({ tasks: data.tasks, panel, models: [] });
    expect(renderLeaderboard(bare)).not.toContain('Warnings of the data');
  });
});

describe('the ARIMA baseline note', () => {
  const data = makeRandomWalkPanel({ seed: 11, units: 1, seriesPerUnit: 2, originsPerSeries: 6 });
  const panel = buildEvaluationPanel(data.origins, data.targets);
  // Issue 51: the port has no seasonal search, and a reader must not take it for R's seasonal auto.arima.
  it('says the search is non-seasonal where ARIMA was scored, and is absent where it was not', () => {
    const withArima = scorePanel({ tasks: data.tasks, panel, models: [], options: { baselines: ['arima'] } });
    expect(renderLeaderboard(withArima)).toMatch(
      /`arima` baseline is forecast::auto\.arima with a \*\*non-seasonal\*\* search/,
    );
    const without = scorePanel({ tasks: data.tasks, panel, models: [], options: { baselines: [] } });
    expect(renderLeaderboard(without)).not.toContain('non-seasonal');
  });
});
