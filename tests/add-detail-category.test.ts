import { appendFileSync, cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duck } from '@asof/duck';
import type { SeriesInput } from '@asof/schema';
import { DEFAULT_REGISTRY_DIR, loadRegistry } from '@asof/taxonomy';
import {
  assertKnownUnits,
  createStagingTables,
  loadRegistryTables,
  runModels,
  StageSink,
  UNIVERSE_MODELS,
} from '@asof/transform';
import { describe, expect, it } from 'vitest';

const NEW_UNIT: SeriesInput = {
  series_id: 'test:container-freight',
  source: 'test',
  source_key: 'freight',
  title: 'Container freight index',
  unit: 'USD per FEU',
  frequency: 'W',
  scope: 'Inter-country',
  category: 'Commodity',
  detail_category: 'Container Freight',
  entity_id: null,
  entity_name: null,
  currency: 'USD',
  seasonal_adjustment: null,
  fiscal_year_end: null,
  is_synthetic: false,
  universe_kind: 'point_in_time',
};

async function stageWeekly(duck: Duck, registry: ReturnType<typeof loadRegistry>) {
  await createStagingTables(duck);
  await loadRegistryTables(duck, registry);
  const sink = await StageSink.create(duck);
  sink.addSeries(NEW_UNIT);
  const week = 7 * 86_400_000_000;
  const start = Date.parse('2015-01-02T21:00:00Z') * 1000;
  for (let i = 0; i < 400; i++) {
    sink.addObservation({
      series_id: NEW_UNIT.series_id,
      timestamp: start + i * week,
      period_start: null,
      available_at: start + i * week + 86_400_000_000,
      value: 1000 + i,
      available_at_basis: 'rule',
      source_ref: 'test',
    });
  }
  sink.close();
}

describe('adding a detail category', () => {
  it('is refused before it is in the registry, naming the nearest valid names', async () => {
    const duck = await Duck.open();
    const registry = loadRegistry();
    await stageWeekly(duck, registry);
    await expect(assertKnownUnits(duck, registry)).rejects.toThrow(/Container Freight/);
    duck.close();
  });

  it('flows from a series through series and tasks once the registry has the unit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'asof-registry-'));
    cpSync(DEFAULT_REGISTRY_DIR, dir, { recursive: true });
    appendFileSync(join(dir, 'units.tsv'), 'Inter-country\tCommodity\tContainer Freight\tW\tyes\tno\n');
    appendFileSync(
      join(dir, 'assignments.tsv'),
      'Inter-country\tCommodity\tContainer Freight\tW\tPoint-wise\tHR,MASE_rel,MASE_abs\tD5\n' +
        'Inter-country\tCommodity\tContainer Freight\tW\tPoint-wise\tMASE_ori\tN/A\n',
    );
    const registry = loadRegistry(dir);
    const duck = await Duck.open();
    await stageWeekly(duck, registry);
    await assertKnownUnits(duck, registry);
    await runModels(duck, UNIVERSE_MODELS, { eval_start: '2020-01-01T00:00:00Z' });
    const series = await duck.one<{ eval_target: boolean; detail_category: string }>(
      'SELECT eval_target, detail_category FROM series',
    );
    expect(series).toEqual({ eval_target: true, detail_category: 'Container Freight' });
    const tasks = await duck.all<{
      metric: string;
      p: string | null;
      h: string | null;
      h_steps: number | null;
    }>('SELECT metric, p, h, h_steps FROM tasks ORDER BY metric, h_steps NULLS FIRST');
    expect(tasks.filter((t) => t.metric === 'HR').map((t) => t.h_steps)).toEqual([1, 4, 13, 26, 52]);
    expect(tasks.filter((t) => t.metric === 'MASE_ori')).toEqual([
      { metric: 'MASE_ori', p: null, h: null, h_steps: null },
    ]);
    expect(tasks).toHaveLength(16);
    duck.close();
  });
});
