import { describe, expect, it } from 'vitest';
import { alignForecasts, forecastRowsToTable } from './align-forecasts.ts';
import { buildEvaluationPanel } from './build-evaluation-panel.ts';
import { LEADERBOARD_SECTION_IDS, leaderboardSections } from './leaderboard-sections.ts';
import { makeRandomWalkPanel } from './make-random-walk-panel.ts';
import { renderLeaderboard } from './render-leaderboard.ts';
import type { RunRecord, ScoringResults } from './results-schema.ts';
import { scorePanel } from './score-panel.ts';
import type { OriginRow, ScoringWindow } from './score-types.ts';

// leaderboardSections is the list the HTML report builds its sections from: it must name exactly the
// `## ` headings leaderboard.md has, in the same order, whatever the results hold.
const headings = (md: string) => [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);

const data = makeRandomWalkPanel({ seed: 3, units: 2, seriesPerUnit: 3, originsPerSeries: 24 });
const index = new Map<string, number>();
const labelled: OriginRow[] = data.origins.map((o) => {
  const j = index.get(o.series_id) ?? 0;
  index.set(o.series_id, j + 1);
  return { ...o, window: (j < 12 ? 'T1' : 'T2') as ScoringWindow };
});

function score(origins: OriginRow[], partial: boolean): ScoringResults {
  const panel = buildEvaluationPanel(origins, data.targets);
  const rows = (model: string, shift: number) =>
    data.targets.map((t) => ({ ...t, model, value: t.value + shift }));
  const full = alignForecasts(panel, forecastRowsToTable(rows('full', 0.1)))[0];
  const models = [full];
  if (partial) {
    const some = rows('some', -0.1).filter((r) => r.series_id !== data.targets[0].series_id);
    models.push(alignForecasts(panel, forecastRowsToTable(some))[0]);
  }
  return scorePanel({ tasks: data.tasks, panel, models });
}

const run: RunRecord = {
  model: 'full',
  protocol_version: 1,
  command: ['python3', 'model.py'],
  files: [],
  split_dataset_id: 'a'.repeat(64),
  runner: { name: 'asof-runner', version: '0' },
  model_reported: { name: null, version: null },
  forecast_kind: 'point',
  fit: null,
  guard: { requests: 1, rows: 1 },
  pairs: { asked: 1, forecast: 1, skipped: 0 },
  batches: 1,
  runtime: {
    started_at: '2026-12-05T00:00:00Z',
    seconds: 1,
    model_seconds: 1,
    node: 'v20',
    platform: 'linux',
  },
};

describe('leaderboardSections', () => {
  it('names every heading of a minimal leaderboard (one full model, no window), in order', () => {
    const results = score(data.origins, false);
    const sections = leaderboardSections(results);
    expect(sections.map((s) => s.title)).toEqual(headings(renderLeaderboard(results)));
    expect(sections.map((s) => s.id)).not.toContain('partial');
    expect(sections.map((s) => s.id)).not.toContain('windows');
  });

  it('names every heading when the results hold every section the leaderboard can have', () => {
    const results = score(labelled, true);
    results.dataset_warnings = [{ code: 'SYNTHETIC', message: 'synthetic data' }];
    results.runs = [run];
    const sections = leaderboardSections(results);
    expect(sections.map((s) => s.id)).toEqual([...LEADERBOARD_SECTION_IDS]);
    expect(sections.map((s) => s.title)).toEqual(headings(renderLeaderboard(results)));
  });
});
